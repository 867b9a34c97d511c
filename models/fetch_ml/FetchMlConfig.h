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
};

CoreSection fetch_ml_config_section();

}  // namespace npusim
