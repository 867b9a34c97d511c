#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "models/matrix_unit/ConvShape.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// How `npusim run --split auto` would share the conv layer between the chip's cores
// (seed002): every candidate mode's cycles, simulated alone and estimated, the choice and
// the reason. Null on a one-core chip or a float layer (workloads are int8).
nlohmann::json explain_split(const HardwareConfig& hw, const ConvShape& layer);
// The same as the lines explain prints (empty for null).
std::string split_text(const nlohmann::json& split);
// How `npusim run --load-order auto` would load the conv layer (apps/compiler/tiling/LoadOrder.h),
// split as --split auto shares it: every order run alone on the chip (cycles, DRAM bytes), the
// choice, the reason and the tiling of the chosen order. Null for a float layer.
nlohmann::json explain_load_order(const HardwareConfig& hw, const ConvShape& layer);
std::string load_order_text(const nlohmann::json& order);

}  // namespace npusim
