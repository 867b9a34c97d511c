#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/HardwareConfig.h"

namespace npusim {

// The banked DRAM's rules that tie keys together (tRC >= tRAS + tRP, the address map
// naming each field once, watermarks below the queue, ...). Throws InputError naming the key.
void check_banked_dram(const DramConfig& dram, const std::string& file);

// "row:rank:bank" -> {"row", "rank", "bank"}, most significant first.
std::vector<std::string> address_map_fields(const std::string& map);

// How many values a field of the address map takes within a channel (column: bursts per
// row; channel: 1, its bits are taken out before the channel-local address).
std::uint64_t address_field_count(const BankedDramConfig& cfg, const std::string& field);
bool map_names_channel(const BankedDramConfig& cfg);
// Bytes of one channel's block before the next channel's: from the banked address map when
// it names `channel`, else /chip/dram/interleave_bytes (0: one contiguous slice a channel).
std::uint64_t channel_interleave_bytes(const DramConfig& dram);
// One channel's peak in bytes per chip cycle: the banked model's whole bursts back to back at
// its own clock, or the bandwidth model's bytes_per_cycle (the roofline's DRAM roof).
double channel_peak_bytes_per_cycle(const DramConfig& dram, double chip_clock_mhz);

}  // namespace npusim
