#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

#include "sim/config/CoreSections.h"

namespace npusim {

// Where instructions are fetched and dispatched (README.md): one control module for the
// whole chip, or one per core (seed000 ¶38's IFU/IDU).
enum class ControllerPlacement { Chip, Core };
NLOHMANN_JSON_SERIALIZE_ENUM(ControllerPlacement, {{ControllerPlacement::Chip, "chip"}, {ControllerPlacement::Core, "core"}})

// The control modules' fetch and dispatch: keys in /core/controller beside dispatch_cycles
// and dependency_mode (sim/config), chip-wide like them. Registered by this folder
// (DispatchConfig.cpp), read with CoreConfig::block<DispatchConfig>(kSection).
struct DispatchConfig {
  static constexpr const char* kSection = "controller";
  ControllerPlacement placement = ControllerPlacement::Chip;
  std::uint32_t dispatch_width = 1;        // instructions one dispatch step places in engine queues
  std::uint32_t instruction_bytes = 64;    // one instruction word, as fetched
  double fetch_bytes_per_cycle = 0;        // instruction fetch from the internal buffer; 0 = not modelled
  std::uint32_t instruction_buffer = 64;   // per-core placement: fetched instructions a core holds
};

}  // namespace npusim
