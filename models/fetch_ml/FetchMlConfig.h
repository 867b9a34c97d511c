#pragma once
#include <cstdint>

#include "sim/common/Cycles.h"
#include "sim/config/CoreSections.h"

namespace npusim {

// The /core/fetch_ml section: state machine 206 and its memory path. seed003 gives
// no timing, so every number here is an assumption (models/fetch_ml/README.md).
struct FetchMlConfig {
  static constexpr const char* kSection = "fetch_ml";
  std::uint32_t queue_depth;
  Cycles set_cycles;         // one ml_set (control-register write)
  Cycles setup_cycles;       // address generator start-up per fetch_ml / ml_return
  double bytes_per_cycle;    // memory requests the address generator issues per cycle
  std::uint64_t request_bytes;  // largest request handed to the memory system
  // The fetch-path cache between the state machine and memory (seed003 ¶25, ¶[0047],
  // ¶[0050]); cache_bytes 0: none.
  std::uint64_t cache_bytes;
  std::uint64_t cache_line_bytes;
  std::uint32_t cache_ways;
  Cycles cache_hit_cycles;   // a line found in the cache
  Cycles cache_miss_cycles;  // the lookup and fill a missing line adds to its memory read
  bool preload;              // the compiler has the next tile's rows preloaded (¶[0050])
  bool auto_fetch;           // the state machine can launch fetches itself (¶[0051])
};

CoreSection fetch_ml_config_section();

}  // namespace npusim
