#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/CrossCheckPlace.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// Rules that tie several keys together (each key alone already passed its limits).
// Throws InputError naming the key that has to change (of those the user's file wrote, when
// it tells: CrossCheckPlace).
void check_cross_fields(const HardwareConfig& cfg, const CrossCheckPlace& at);
// The banked DRAM's rules (BankedDramChecks.h), naming the keys as `at` says.
void check_banked_dram(const DramConfig& dram, const CrossCheckPlace& at);

// Each registered section's `resolve`, on every core kind, with the loaded energy table
// (cfg.energy), then its `check` again on what it resolved.
void resolve_sections(HardwareConfig& cfg, const std::string& file);

// Which kind each core is (HardwareConfig::kind_of_core): in every cluster the
// /core kind comes first, then each core kind in name order.
std::vector<std::uint32_t> place_core_kinds(const HardwareConfig& cfg);

}  // namespace npusim
