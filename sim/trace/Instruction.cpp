#include "sim/trace/Instruction.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/common/JsonInteger.h"

namespace npusim {

const char* address_space_name(AddressSpace s) {
  switch (s) {
    case AddressSpace::Dram: return "dram";
    case AddressSpace::Nram: return "nram";
    case AddressSpace::Wram: return "wram";
    case AddressSpace::Cluster: return "cluster";
    case AddressSpace::Rf: return "rf";
  }
  return "?";
}

std::uint64_t TensorOperand::elements() const {
  std::uint64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::uint64_t TensorOperand::row_bytes() const {
  return (shape.empty() ? 1 : shape.back()) * dtype_size(dtype);
}

std::uint64_t TensorOperand::end() const {
  const std::uint64_t row = row_bytes();
  if (row == 0 || bytes() == 0) return offset;
  return offset + (bytes() / row - 1) * row_pitch() + row;
}

std::uint64_t TensorOperand::bytes_before(std::uint64_t address) const {
  if (address <= offset) return 0;
  const std::uint64_t rel = address - offset, row = row_bytes(), step = row_pitch();
  if (row == 0) return 0;
  return std::min(bytes(), rel / step * row + std::min(rel % step, row));
}

std::uint64_t TensorOperand::address_of(std::uint64_t index) const {
  const std::uint64_t row = row_bytes();
  return row == 0 ? offset : offset + index / row * row_pitch() + index % row;
}

}  // namespace npusim
