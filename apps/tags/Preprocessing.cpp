#include "apps/tags/Preprocessing.h"

#include <cstring>

#include <fmt/format.h>

#include "apps/tags/TagGeneration.h"
#include "sim/common/InputError.h"
#include "sim/tensor/ElementAccess.h"
#include "sim/tensor/Half.h"

namespace npusim {

namespace {

[[noreturn]] void bad_dynamic_tag(const std::string& field, const std::string& reason) { throw InputError("", "dynamic tag, " + field, reason); }

std::uint64_t count(const std::vector<std::uint64_t>& v) {
  std::uint64_t n = 1;
  for (auto x : v) n *= x;
  return n;
}

HostTensor cast(const HostTensor& t, DType to) {
  if (t.dtype == to) return t;
  if (t.dtype != DType::Float32 || to != DType::Float16)
    bad_dynamic_tag("data type", fmt::format("casting {} to {} is not supported (float32 to float16 is)", dtype_name(t.dtype),
                                 dtype_name(to)));
  HostTensor out{to, t.order, t.values, std::vector<std::uint8_t>(count(t.values) * 2)};
  for (std::uint64_t i = 0; i < count(t.values); ++i)
    store_element<std::uint16_t>(out.bytes.data(), i, float_to_half(load_element<float>(t.bytes.data(), i)));
  return out;
}

// Strides in elements of a row-major tensor.
std::vector<std::uint64_t> strides(const std::vector<std::uint64_t>& values) {
  std::vector<std::uint64_t> s(values.size(), 1);
  for (std::size_t i = values.size(); i-- > 1;) s[i - 1] = s[i] * values[i];
  return s;
}

// Copies every element of `t` into `out` (shape `out_values`, order `out_order`),
// at the same index per letter; positions of `out` it does not reach stay zero.
HostTensor place(const HostTensor& t, const std::string& out_order, const std::vector<std::uint64_t>& out_values,
                 const std::vector<std::uint64_t>& first = {}) {
  const std::size_t es = dtype_size(t.dtype), rank = t.order.size();
  HostTensor out{t.dtype, out_order, out_values, std::vector<std::uint8_t>(count(out_values) * es)};
  const auto out_strides = strides(out_values);
  std::vector<std::uint64_t> stride_of(rank), limit(rank);  // per source letter: out stride and extent
  for (std::size_t i = 0; i < rank; ++i) {
    const std::size_t pos = out_order.find(t.order[i]);
    stride_of[i] = out_strides[pos];
    limit[i] = out_values[pos];
  }
  std::vector<std::uint64_t> idx(rank, 0);
  const std::uint64_t n = count(t.values);
  for (std::uint64_t e = 0; e < n; ++e) {
    std::uint64_t at = 0;
    bool inside = true;
    for (std::size_t i = 0; i < rank && inside; ++i) {
      const std::uint64_t from = first.empty() ? 0 : first[i];
      inside = idx[i] >= from && idx[i] - from < limit[i];
      at += (idx[i] - from) * stride_of[i];
    }
    if (inside) std::memcpy(out.bytes.data() + at * es, t.bytes.data() + e * es, es);
    for (std::size_t i = rank; i-- > 0;)
      if (++idx[i] < t.values[i]) break;
      else idx[i] = 0;
  }
  return out;
}

}  // namespace

bool matches_dynamic_tag(const HostTensor& t, const StaticTag& s, const DynamicTag& d) {
  return t.dtype == d.dtype && t.order == d.order && t.values == operational_values(s, d);
}

HostTensor preprocess(const HostTensor& t, const DynamicTag& d) {
  HostTensor x = cast(t, d.dtype);
  if (d.order.size() != x.order.size() || !std::is_permutation(d.order.begin(), d.order.end(), x.order.begin()))
    bad_dynamic_tag("dimension order", fmt::format("dim_{} is not a reordering of dim_{}", d.order, x.order));
  std::vector<std::uint64_t> values;
  for (char letter : d.order) values.push_back(x.values[x.order.find(letter)]);
  for (const auto& p : d.padding) {
    const auto at = d.order.find(p.dim);
    if (at == std::string::npos) bad_dynamic_tag("padding", fmt::format("pads '{}', which dim_{} does not have", p.dim, d.order));
    if (p.value == 0) continue;
    for (const auto& tile : d.tiling)
      if (tile.dim == p.dim && (values[at] + p.value) != (values[at] + tile.value - 1) / tile.value * tile.value)
        bad_dynamic_tag("padding", fmt::format("{}={} does not fill the last tile: {} in tiles of {}", p.dim, p.value, values[at],
                                   tile.value));
    values[at] += p.value;
  }
  return place(x, d.order, values);
}

HostTensor split_piece(const HostTensor& t, const SplitIndex& index, std::size_t k) {
  const auto at = t.order.find(index.dim);
  if (at == std::string::npos) bad_dynamic_tag("split index", fmt::format("splits '{}', which dim_{} does not have", index.dim, t.order));
  const auto [start, end] = index.pieces.at(k);
  if (end >= t.values[at]) bad_dynamic_tag("split index", fmt::format("piece ({},{}) is beyond {}={}", start, end, index.dim, t.values[at]));
  std::vector<std::uint64_t> values = t.values, first(t.values.size(), 0);
  values[at] = end - start + 1;
  first[at] = start;
  return place(t, t.order, values, first);
}

}  // namespace npusim
