#pragma once
#include <cstdint>
#include <vector>

namespace npusim {

// The sparse cluster's flat compressed format (docs/trace-format.md, `compress`): a dense
// int8 tensor's non-zeros in element order, each with its int32 element index, and after
// the last an index of -1 (value 0) when the list has room for it. The `compress` op writes
// it on the chip; the trace loader writes it for weights compressed offline (seed001
// ¶203-205), so both produce the same bytes.
struct FlatCompressed {
  static constexpr std::int32_t kEndOfList = -1;
  std::vector<std::int8_t> values;
  std::vector<std::int32_t> indices;
  std::uint64_t nonzeros = 0;  // without the end marker
};

// The non-zeros of `n` dense bytes, with the end marker when fewer than `capacity`.
FlatCompressed compress_flat(const std::uint8_t* dense, std::uint64_t n, std::uint64_t capacity);

}  // namespace npusim
