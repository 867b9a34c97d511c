#include "sim/trace/Instruction.h"

namespace npusim {

const char* address_space_name(AddressSpace s) {
  switch (s) {
    case AddressSpace::Dram: return "dram";
    case AddressSpace::Nram: return "nram";
    case AddressSpace::Wram: return "wram";
  }
  return "?";
}

const char* dependency_mode_name(DependencyMode m) {
  switch (m) {
    case DependencyMode::Full: return "full";
    case DependencyMode::TwoPhase: return "two_phase";
    case DependencyMode::Staged: return "staged";
  }
  return "?";
}

std::uint64_t TensorOperand::elements() const {
  std::uint64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::uint32_t param_element(const nlohmann::json& params, const char* key, std::size_t index,
                            std::uint32_t fallback) {
  if (!params.contains(key)) return fallback;
  return params.at(key).at(index).get<std::uint32_t>();
}

}  // namespace npusim
