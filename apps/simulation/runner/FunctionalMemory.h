#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace/TraceHeader.h"

namespace npusim {

class Chip;

// Moves real tensor bytes between files and the simulated memories for
// functional runs: trace "inputs" are written into DRAM/NRAM/WRAM before the
// first cycle, trace "outputs" are read back and saved as .npy after the last.
void preload_inputs(Chip& chip, const TraceHeader& header, const std::string& trace_path);
void dump_outputs(Chip& chip, const TraceHeader& header, const std::string& directory);

std::vector<std::uint8_t> read_region(Chip& chip, const DataBinding& binding);
void write_region(Chip& chip, const DataBinding& binding, const std::vector<std::uint8_t>& bytes);

}  // namespace npusim
