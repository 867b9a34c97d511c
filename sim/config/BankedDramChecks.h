#pragma once
#include <string>
#include <vector>

#include "sim/config/HardwareConfig.h"

namespace npusim {

// The banked DRAM's rules that tie keys together (tRC >= tRAS + tRP, the address map
// naming each field once, watermarks below the queue, ...). Throws InputError naming the key.
void check_banked_dram(const DramConfig& dram, const std::string& file);

// "row:rank:bank" -> {"row", "rank", "bank"}, most significant first.
std::vector<std::string> address_map_fields(const std::string& map);

}  // namespace npusim
