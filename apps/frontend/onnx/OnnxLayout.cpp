#include "apps/frontend/onnx/OnnxLayout.h"

#include <algorithm>
#include <limits>

namespace npusim {

namespace {

std::int64_t product(const std::vector<std::int64_t>& dims) { return saturating_product(dims); }

// Row-major strides of `dims` (size-1 axes get 0: they are never stepped).
std::vector<std::int64_t> row_major(const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> strides(dims.size(), 0);
  std::int64_t step = 1;
  for (std::size_t i = dims.size(); i-- > 0;) {
    if (dims[i] != 1) strides[i] = step;
    step = saturating_product({step, dims[i]});
  }
  return strides;
}

}  // namespace

std::int64_t saturating_product(const std::vector<std::int64_t>& extents) {
  std::int64_t n = 1;
  for (auto d : extents) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<std::int64_t>::max() / d) return std::numeric_limits<std::int64_t>::max();
    n *= d;
  }
  return n;
}

OnnxValue nchw_value(std::string tensor, int layer, std::uint32_t batch, MapShape map) {
  OnnxValue v{std::move(tensor), map, layer, batch, {}, {}, 0, 0, nullptr, false, nullptr};
  const std::int64_t c = map.c;
  v.dims = {batch, c, map.h, map.w};
  v.strides = {saturating_product({v.positions(), c}), 1, std::int64_t(map.w) * c, c};
  return v;
}

OnnxValue rows_value(std::string tensor, int layer, std::uint32_t batch, MapShape map,
                     const std::vector<std::int64_t>& dims) {
  OnnxValue v{std::move(tensor), map, layer, batch, dims, row_major(dims), 0, 0, nullptr, false, nullptr};
  return v;
}

bool same_view(const OnnxValue& a, const OnnxValue& b) {
  if (a.dims != b.dims || a.offset != b.offset || !(a.map == b.map) || a.batch != b.batch) return false;
  for (std::size_t i = 0; i < a.dims.size(); ++i)
    if (a.dims[i] != 1 && a.strides[i] != b.strides[i]) return false;
  return true;
}

bool is_nchw(const OnnxValue& v) { return same_view(v, nchw_value(v.tensor, v.layer, v.batch, v.map)); }

bool is_whole(const OnnxValue& v) { return v.offset == 0 && product(v.dims) == v.elements(); }

bool is_rows(const OnnxValue& v) {
  if (v.dims.size() < 2 || v.dims.back() != v.map.c || !is_whole(v)) return false;
  const auto want = row_major(v.dims);
  for (std::size_t i = 0; i < v.dims.size(); ++i)
    if (v.dims[i] != 1 && v.strides[i] != want[i]) return false;
  return true;
}

std::optional<OnnxValue> reshaped(const OnnxValue& v, const std::vector<std::int64_t>& to) {
  if (product(to) != product(v.dims)) return std::nullopt;
  std::vector<std::int64_t> od, os, nd;  // old axes (sizes, strides) and new sizes, without 1s
  for (std::size_t i = 0; i < v.dims.size(); ++i)
    if (v.dims[i] != 1) od.push_back(v.dims[i]), os.push_back(v.strides[i]);
  for (auto d : to)
    if (d != 1) nd.push_back(d);
  std::vector<std::int64_t> ns(nd.size(), 0);
  // Old and new axes fall into runs of equal size; a run of old axes must be one
  // contiguous stretch of memory, which the new axes then cut row-major.
  for (std::size_t oi = 0, ni = 0; oi < od.size() && ni < nd.size();) {
    std::size_t oj = oi + 1, nj = ni + 1;
    std::int64_t op = od[oi], np = nd[ni];
    while (op != np) {
      if (op < np) {
        if (oj == od.size()) return std::nullopt;
        op = saturating_product({op, od[oj++]});
      } else {
        if (nj == nd.size()) return std::nullopt;
        np = saturating_product({np, nd[nj++]});
      }
    }
    for (std::size_t k = oi; k + 1 < oj; ++k)
      if (os[k] != os[k + 1] * od[k + 1]) return std::nullopt;
    ns[nj - 1] = os[oj - 1];
    for (std::size_t k = nj - 1; k-- > ni;) ns[k] = saturating_product({ns[k + 1], nd[k + 1]});
    oi = oj, ni = nj;
  }
  OnnxValue out = v;
  out.dims = to;
  out.strides.assign(to.size(), 0);
  for (std::size_t i = 0, k = 0; i < to.size(); ++i)
    if (to[i] != 1) out.strides[i] = ns[k++];
  return out;
}

OnnxValue transposed(const OnnxValue& v, const std::vector<std::int64_t>& perm) {
  OnnxValue out = v;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    out.dims[i] = v.dims[std::size_t(perm[i])];
    out.strides[i] = v.strides[std::size_t(perm[i])];
  }
  return out;
}

OnnxValue part_of(const OnnxValue& v, std::size_t axis, std::int64_t parts, std::int64_t index) {
  OnnxValue out = v;
  out.dims[axis] = v.dims[axis] / parts;
  out.offset += index * out.dims[axis] * v.strides[axis];
  return out;
}

std::optional<ChannelBlock> channel_block(const OnnxValue& v) {
  const std::int64_t c = v.map.c;
  if (v.offset >= c) return std::nullopt;  // a part of the positions, not of the channels
  std::vector<std::size_t> channel_axes;
  std::int64_t position_elements = 1;
  for (std::size_t i = 0; i < v.dims.size(); ++i) {
    if (v.dims[i] == 1) continue;
    if (v.strides[i] < c) {
      channel_axes.push_back(i);
    } else {
      if (v.strides[i] % c != 0) return std::nullopt;
      position_elements = saturating_product({position_elements, v.dims[i]});
    }
  }
  if (position_elements != saturating_product({v.batch, v.positions()})) return std::nullopt;
  std::sort(channel_axes.begin(), channel_axes.end(), [&](auto a, auto b) { return v.strides[a] < v.strides[b]; });
  std::int64_t count = 1;
  for (auto a : channel_axes) {
    if (v.strides[a] != count) return std::nullopt;
    count *= v.dims[a];
  }
  if (v.offset + count > c) return std::nullopt;
  ChannelBlock b{std::uint32_t(v.offset), std::uint32_t(count), v.strides};
  for (std::size_t i = 0; i < v.dims.size(); ++i)
    if (v.dims[i] != 1 && v.strides[i] >= c) b.strides[i] = v.strides[i] / c * count;
  return b;
}

namespace {

// The operand with its last two axes read as (rows, segment) or (segment, rows).
std::optional<MatmulOperand> read_operand(const OnnxValue& v, bool transposed) {
  const std::size_t r = v.dims.size();
  const std::size_t rows = transposed ? r - 1 : r - 2, segment = transposed ? r - 2 : r - 1;
  const std::int64_t seg = v.dims[segment], c = v.map.c;
  if (v.dims[rows] != v.positions() || c % seg != 0) return std::nullopt;
  if ((seg != 1 && v.strides[segment] != 1) || (v.dims[rows] != 1 && v.strides[rows] != c)) return std::nullopt;
  MatmulOperand m{std::uint32_t(c / seg), transposed, -1, -1};
  for (std::size_t i = 0; i + 2 < r; ++i) {
    if (v.dims[i] == 1) continue;
    if (m.heads_axis < 0 && m.heads > 1 && v.dims[i] == m.heads && v.strides[i] == seg) {
      m.heads_axis = int(i);
    } else if (m.batch_axis < 0 && v.dims[i] == v.batch && v.strides[i] == saturating_product({v.positions(), c})) {
      m.batch_axis = int(i);
    } else {
      return std::nullopt;
    }
  }
  if (m.heads > 1 && m.heads_axis < 0) return std::nullopt;
  return m;
}

}  // namespace

std::optional<MatmulOperand> matmul_operand(const OnnxValue& v) {
  if (v.dims.size() < 2 || !is_whole(v)) return std::nullopt;
  if (auto m = read_operand(v, false)) return m;
  return read_operand(v, true);
}

}  // namespace npusim
