#include "models/fetch_ml/FetchMlConfig.h"

#include <fmt/format.h>

namespace npusim {

namespace {

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
  return fm.keys;
}

// fetch_ml writes the register file: the core kind must have one.
void check_fetch_ml(const CoreConfig& core, const SectionPlace& place) {
  if (!core.has_engine("fetch_ml")) return;
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
