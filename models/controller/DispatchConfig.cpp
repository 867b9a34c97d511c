#include "models/controller/DispatchConfig.h"

namespace npusim {

namespace {

CoreSection dispatch_section() {
  SectionFields<DispatchConfig> ctl(DispatchConfig::kSection);
  std::vector<ConfigKey> keys;
  keys.push_back(choice(ctl("placement", &DispatchConfig::placement), "chip", {"chip", "core"},
                        "chip = one control module fetches and dispatches every core's instructions in program "
                        "order; core = one per core (seed000 IFU/IDU), each with its own instruction buffer"));
  keys.push_back(integer(ctl("dispatch_width", &DispatchConfig::dispatch_width), 1, within(1, 64), "instructions",
                         "instructions one dispatch step places in engine queues (assumption)"));
  keys.push_back(integer(ctl("instruction_bytes", &DispatchConfig::instruction_bytes), 64, within(4, 4096), "bytes",
                         "one instruction word as fetched from the internal buffer (assumption: one data row)"));
  keys.push_back(number(ctl("fetch_bytes_per_cycle", &DispatchConfig::fetch_bytes_per_cycle), 0,
                        off_or(within(1, 4096)), "bytes/cycle",
                        "instruction fetch from the internal buffer (seed004 §1.2); 0 = fetch takes no time"));
  keys.push_back(integer(ctl("instruction_buffer", &DispatchConfig::instruction_buffer), 64, within(1, 1 << 20),
                         "instructions", "per-core placement: fetched instructions a core's controller holds"));
  // Chip-wide like the rest of /core/controller: a core kind cannot have its own.
  for (ConfigKey& k : keys) k.scope = KeyScope::Chip;
  return {DispatchConfig::kSection, "", DispatchConfig{}, keys, nullptr, nullptr};
}

const bool kRegistered = register_core_section(dispatch_section());

}  // namespace

}  // namespace npusim
