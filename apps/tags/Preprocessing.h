#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "apps/tags/TagInformation.h"
#include "sim/tensor/DType.h"

namespace npusim {

// A tensor on the host side of seed002 §1.1, before it is split and stored: its data
// state (¶98: data type, dimension order, dimension values) and its bytes, row-major
// with the first letter of `order` outermost.
struct HostTensor {
  DType dtype = DType::Float32;
  std::string order;
  std::vector<std::uint64_t> values;
  std::vector<std::uint8_t> bytes;
};

// §3.1 S12 steps 1-3: whether the data state already matches the dynamic tag.
bool matches_dynamic_tag(const HostTensor& t, const StaticTag& s, const DynamicTag& d);

// §3.1 S12 step 2 / §3.7: cast to the dynamic type (float32 -> float16, or none),
// reorder to the dynamic order, then cut each padded dimension into tiles of the
// tiling length and pad the short last tile with zeros by the padding length. The
// padding must be exactly what makes the last tile whole (W: 1000 + 24 = 2 x 512);
// anything else is an InputError naming the tag field.
HostTensor preprocess(const HostTensor& t, const DynamicTag& d);

// §3.1 S12 step 4: piece k of the split index, cut along its dimension (a dense tensor).
HostTensor split_piece(const HostTensor& t, const SplitIndex& index, std::size_t k);

}  // namespace npusim
