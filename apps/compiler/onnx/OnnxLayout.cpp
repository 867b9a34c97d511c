#include "apps/compiler/onnx/OnnxLayout.h"

namespace npusim {

namespace {

std::uint64_t positions(const MapShape& m) { return std::uint64_t(m.h) * m.w; }

// Both orders are the same bytes.
bool order_free(const OnnxValue& v) { return positions(v.map) == 1 || v.map.c == 1; }

// Size of the logical axes 1.. that come first in storage order.
std::uint64_t first_group(const OnnxValue& v) { return v.channels_first ? v.map.c : positions(v.map); }

// Axis index k (from 1) such that axes 1..k-1 hold `size` elements; 0 when none.
std::size_t group_boundary(const std::vector<std::int64_t>& dims, std::uint64_t size) {
  std::uint64_t product = 1;
  for (std::size_t k = 1; k <= dims.size(); ++k) {
    if (product == size) return k;
    if (k < dims.size()) product *= std::uint64_t(dims[k]);
  }
  return 0;
}

}  // namespace

std::optional<MapShape> as_map(const OnnxValue& v, const std::vector<std::int64_t>& dims) {
  if (dims.size() != 4 || !(v.channels_first || order_free(v))) return std::nullopt;
  const MapShape m{std::uint32_t(dims[2]), std::uint32_t(dims[3]), std::uint32_t(dims[1])};
  if (!(m == v.map)) return std::nullopt;
  return m;
}

bool last_axis_is_channels(const OnnxValue& v, const std::vector<std::int64_t>& dims) {
  return dims.size() >= 2 && std::uint64_t(dims.back()) == v.map.c && (!v.channels_first || order_free(v));
}

std::optional<OnnxValue> reshaped(const OnnxValue& v, const std::vector<std::int64_t>& from,
                                  const std::vector<std::int64_t>& to) {
  if (to.empty() || from.empty() || to[0] != from[0]) return std::nullopt;  // the batch stays outermost
  if (order_free(v) || group_boundary(to, first_group(v)) != 0) return v;
  return std::nullopt;
}

std::optional<OnnxValue> transposed(const OnnxValue& v, const std::vector<std::int64_t>& from,
                                    const std::vector<std::int64_t>& perm) {
  if (perm.empty() || perm[0] != 0) return std::nullopt;
  if (order_free(v)) return v;
  const std::size_t boundary = group_boundary(from, first_group(v));
  if (boundary == 0) return std::nullopt;
  // The axes that are not 1, in their new order: each group must stay in order and
  // together; the groups keep their order (nothing moves) or swap (the order flips).
  std::vector<std::int64_t> moved;
  for (std::size_t i = 1; i < perm.size(); ++i)
    if (from[std::size_t(perm[i])] != 1) moved.push_back(perm[i]);
  std::vector<std::int64_t> first, second;
  for (std::size_t k = 1; k < from.size(); ++k)
    if (from[k] != 1) (k < boundary ? first : second).push_back(std::int64_t(k));
  std::vector<std::int64_t> same = first, swapped = second;
  same.insert(same.end(), second.begin(), second.end());
  swapped.insert(swapped.end(), first.begin(), first.end());
  OnnxValue out = v;
  if (moved == same) return out;
  if (moved != swapped) return std::nullopt;
  out.channels_first = !v.channels_first;
  return out;
}

}  // namespace npusim
