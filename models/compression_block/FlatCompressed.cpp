#include "models/compression_block/FlatCompressed.h"

namespace npusim {

FlatCompressed compress_flat(const std::uint8_t* dense, std::uint64_t n, std::uint64_t capacity) {
  FlatCompressed f;
  for (std::uint64_t i = 0; i < n; ++i)
    if (dense[i] != 0) {
      f.values.push_back(std::int8_t(dense[i]));
      f.indices.push_back(std::int32_t(i));
    }
  f.nonzeros = f.values.size();
  if (f.nonzeros < capacity) {
    f.values.push_back(0);
    f.indices.push_back(FlatCompressed::kEndOfList);
  }
  return f;
}

}  // namespace npusim
