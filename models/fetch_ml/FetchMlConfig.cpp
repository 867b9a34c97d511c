#include "models/fetch_ml/FetchMlConfig.h"

#include <fmt/format.h>

namespace npusim {

namespace {

// The fetch-path cache and the two modes that use it (models/fetch_ml/README.md).
void add_cache_keys(EngineSectionKeys<FetchMlConfig>& fm) {
  using F = FetchMlConfig;
  fm.add(integer(fm("cache_bytes", &F::cache_bytes), 0, within(0, 64 * MiB), "bytes",
                 fm.what + "cache between the state machine and memory (seed003 ¶[0047] 'accessed and cached'); "
                           "0 = none: every fetch reads memory"));
  fm.add(integer(fm("cache_line_bytes", &F::cache_line_bytes), 64, powers_of_two(1, 4096), "bytes",
                 fm.what + "cache line: the unit of a hit, a miss and a fill"));
  fm.add(integer(fm("cache_ways", &F::cache_ways), 8, within(1, 64), "count",
                 fm.what + "lines per set (least recently used is replaced)"));
  fm.add(latency(fm("cache_hit_cycles", &F::cache_hit_cycles), 28,
                 fm.what + "latency of a line found in the cache (a GPU L1 hit: 28 cycles measured on Volta, "
                           "Jia et al. 2018)"));
  fm.add(latency(fm("cache_miss_cycles", &F::cache_miss_cycles), 28,
                 fm.what + "what a missing line adds to its memory read: the lookup before it and the fill"));
  fm.add(flag(fm("preload", &F::preload), true,
              "with a cache: the compiler issues ml_preload of each tile's image rows before its fetch, so "
              "they arrive while the register group is still busy (seed003 ¶25, ¶[0050])"));
  fm.add(flag(fm("auto_fetch", &F::auto_fetch), false,
              "the state machine tracks the datapath and launches the next tile's fetches itself (seed003 "
              "¶[0051]); the compiler then sets the auto_fetch control register and the shader program issues "
              "only each core's first fetches of a layer"));
}

std::vector<ConfigKey> fetch_ml_keys() {
  using F = FetchMlConfig;
  EngineSectionKeys<F> fm("fetch_ml state machine (seed003 206, assumption): ", 8, "instructions waiting to issue");
  fm.add(latency(fm("set_cycles", &F::set_cycles), 1, fm.what + "cost of one ml_set control-register write",
                 kMaxBlockLatency));
  fm.add(latency(fm("setup_cycles", &F::setup_cycles), 4,
                 fm.what + "address generator start-up per fetch_ml and ml_return"));
  fm.add(bandwidth(fm("bytes_per_cycle", &F::bytes_per_cycle), 64,
                   fm.what + "request bytes the address generator issues per cycle"));
  fm.add(integer(fm("request_bytes", &F::request_bytes), 256, within(4, 1 * MiB), "bytes",
                 fm.what + "largest single memory request"));
  add_cache_keys(fm);
  return fm.keys;
}

// fetch_ml writes the register file: the core kind must have one.
void check_fetch_ml(const CoreConfig& core, const SectionPlace& place) {
  if (!core.has_engine("fetch_ml")) return;
  const auto& f = core.block<FetchMlConfig>(FetchMlConfig::kSection);
  const std::uint64_t set = f.cache_line_bytes * f.cache_ways;
  if (f.cache_bytes > 0 && f.cache_bytes % set != 0)
    place.fail("cache_bytes", fmt::format("{} bytes is not a whole number of sets of {} ways x {} byte lines ({} "
                                          "bytes); use a multiple of {}",
                                          f.cache_bytes, f.cache_ways, f.cache_line_bytes, set, set));
  if (core.register_file.capacity_bytes == 0) {
    SectionPlace rf{place.file, place.pointer.substr(0, place.pointer.rfind('/')) + "/register_file"};
    rf.fail("capacity_bytes", "the fetch_ml engine loads a register file, and this core kind has none; give it a "
                              "capacity (configs/gpu-shader.json uses 262144)");
  }
}

}  // namespace

CoreSection fetch_ml_config_section() {
  return {FetchMlConfig::kSection, "fetch_ml", FetchMlConfig{}, fetch_ml_keys(), check_fetch_ml};
}

}  // namespace npusim
