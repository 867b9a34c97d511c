#pragma once
#include <cstdint>
#include <string>

#include "sim/common/Cycles.h"
#include "sim/config/CoreSections.h"

namespace npusim {

// The "load_dma" and "store_dma" sections of a core (keys: DmaConfig.cpp).
struct DmaConfig {
  std::uint32_t queue_depth;
  double bytes_per_cycle;
  Cycles setup_cycles;
  std::uint64_t segment_bytes;     // the DMA hands traffic to the memory system in pieces this large
  std::uint32_t max_segments;      // a longer transfer gets longer segments (0 = no limit)
  std::uint32_t max_outstanding;   // instructions in flight at once (1 = one after another)
  std::uint64_t bus_buffer_bytes;  // seed004's bus buffer on the way to DRAM (stores); 0 = unbounded
};

// One DMA direction's section ("load_dma" for engine "load"); `what` starts each key's meaning.
CoreSection dma_config_section(const std::string& section, const std::string& engine, const std::string& what);

}  // namespace npusim
