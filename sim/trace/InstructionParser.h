#pragma once
#include <nlohmann/json.hpp>

#include "sim/config/HardwareConfig.h"
#include "sim/trace/Instruction.h"
#include "sim/trace/TraceFields.h"

namespace npusim {

// Ids must fit in 31 bits so that every consumer can index them cheaply.
constexpr std::uint64_t kMaxInstructionId = (std::uint64_t{1} << 31) - 1;

// Turns one instruction line into an Instruction and checks everything that
// line alone decides: fields, types, op rules (OpCatalog), engine and core
// against the config, and capacities. Whether dependencies name earlier
// instructions is for the reader, which has seen those lines.
Instruction parse_instruction(const nlohmann::json& line, const HardwareConfig& cfg, const TracePlace& place);

}  // namespace npusim
