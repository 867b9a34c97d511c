#include "models/matrix_unit/MatrixUnitConfig.h"

#include <fmt/format.h>

namespace npusim {

namespace {

void add_bus_keys(std::vector<ConfigKey>& keys, const SectionFields<BusConfig>& bus, const std::string& what) {
  keys.push_back(bandwidth(bus("bytes_per_cycle", &BusConfig::bytes_per_cycle), 64, what + " bandwidth"));
  keys.push_back(latency(bus("latency", &BusConfig::latency), 2, what + " transfer delay", kMaxBlockLatency));
}

// The master's NRAM requests and the relay's register timing (models/matrix_unit/README.md,
// "Requests"): assumptions, seed000 counts requests but gives no times.
void add_read_keys(std::vector<ConfigKey>& keys, const SectionFields<MasterReadConfig>& read,
                   const SectionFields<RelayTiming>& relay) {
  keys.push_back(integer(read("request_bytes", &MasterReadConfig::request_bytes), 64, powers_of_two(1, 4096), "bytes",
                         "widest NRAM read request of the master circuit; a contiguous read of more bytes takes "
                         "several requests (seed000 ¶103: one request for Ws contiguous positions)"));
  keys.push_back(latency(read("request_cycles", &MasterReadConfig::request_cycles), 1,
                         "cycles the master's NRAM read port spends on one request, contiguous or strided", 1024));
  keys.push_back(latency(relay("write_cycles", &RelayTiming::write_cycles), 1,
                         "cycles to write one NRAM request's bytes into the relay's registers", 1024));
  keys.push_back(integer(relay("read_cycles", &RelayTiming::read_cycles), 1, within(1, 1024), "cycles",
                         "cycles to read one data row (Ws strided Pci slices) out of the relay's registers, on the "
                         "relay's own read port"));
}

std::vector<ConfigKey> matrix_keys() {
  using M = MatrixUnitConfig;
  EngineSectionKeys<M> mx("", 4, "matrix instructions waiting to issue");
  mx.add(integer(mx("slaves", &M::slaves), 16, within(1, 256), "count", "slave circuits (N)"));
  mx.add(integer(mx("cus_per_slave", &M::cus_per_slave), 4, within(1, 64), "count", "CUs in each slave (Ncu)"));
  mx.add(integer(mx("row_bytes", &M::row_bytes), 64, powers_of_two(8, 4096), "bytes",
                 "one data row, the amount a CU takes per compute cycle (M)"));
  mx.add(integer(mx("first_buffer_rows", &M::first_buffer_rows), 8, within(1, 4096), "rows",
                 "feature-map rows each slave's first buffer holds (L1); >= cus_per_slave"));
  mx.add(integer(mx("second_buffer_rows", &M::second_buffer_rows), 9, within(1, 4096), "rows",
                 "weight rows each slave's second buffer holds (L2)"));
  mx.add(integer(mx("third_buffer_bytes", &M::third_buffer_bytes), 4096, within(1, 64 * MiB), "bytes",
                 "each slave's third (result) buffer"));
  mx.add(integer(mx("third_buffer_depth", &M::third_buffer_depth), 2, within(1, 64), "tiles",
                 "tiles of results the third buffer holds at once: from 2, a tile's write-back overlaps the "
                 "next tiles' compute and the buses prefetch ahead; 1 runs tiles strictly one after another "
                 "(capped by third_buffer_bytes)"));
  mx.add(integer_list(mx("pci_candidates", &M::pci_candidates), {64, 32, 16, 8},
                      non_empty(powers_of_two(1, 4096)), "bytes",
                      "input-channel split sizes Pci to choose from, largest first, each <= row_bytes"));
  mx.add(integer(mx("pci_padding_tolerance", &M::pci_padding_tolerance), 16, within(0, 4096), "bytes",
                 "a larger Pci is kept while its padding exceeds the least padding by less than this"));
  mx.add(integer(mx("co_block", &M::co_block), 64, within(1, 65536), "count",
                 "output channels computed per outer round"));
  mx.add(latency(mx("mac_latency", &M::mac_latency), 4, "pipeline delay of one CU multiply-accumulate",
                 kMaxBlockLatency));
  add_bus_keys(mx.keys, mx.nested("broadcast_bus", &M::broadcast_bus),
               "feature-map broadcast bus (master to all slaves):");
  add_bus_keys(mx.keys, mx.nested("distribution_bus", &M::distribution_bus),
               "weight distribution bus (master to one slave):");
  add_bus_keys(mx.keys, mx.nested("write_back", &M::write_back),
               "result write-back (third buffer to NRAM, one output data row per request):");
  mx.add(bandwidth(mx("readout_bytes_per_cycle", &M::readout_bytes_per_cycle), 64,
                   "readout of each slave's third buffer (cw -> wc reorder and padding filter, ¶147-¶150): "
                   "accumulator bytes per cycle, padding slots and positions included; a tile's write-back "
                   "takes at least its result set at this rate"));
  mx.add(flag(mx("result_requantize", &M::result_requantize), true,
              "the readout path requantizes int32 results to int8 (shift, ReLU) before write-back, so a "
              "conv with a shift writes int8 and skips the vector unit's requant"));
  mx.add(choice(mx("timing_model", &M::timing_model), "fast", {"fast", "cycle-stepped"},
                "how conv time is worked out: fast books windows and tiles; cycle-stepped steps every bus, "
                "buffer and CU array one cycle at a time (slow; docs/fidelity.md)"));
  mx.add(flag(mx("relay_enabled", &M::relay_enabled), true,
              "rows pass through the relay store, which inserts the Pci padding"));
  mx.add(integer(mx("relay_bytes", &M::relay_bytes), 256, within(1, 16 * MiB), "bytes",
                 "relay store capacity; >= row_bytes when the relay is enabled"));
  add_read_keys(mx.keys, mx.nested("nram_read", &M::nram_read), mx.nested("relay", &M::relay));
  return mx.keys;
}

}  // namespace

void check_matrix_unit_config(const MatrixUnitConfig& mx, const SectionPlace& place) {
  // Pci must divide the row (Ws = M / Pci); the Pci search walks the list largest first.
  const auto& pci = mx.pci_candidates;
  for (std::size_t i = 0; i < pci.size(); ++i) {
    const std::string key = fmt::format("pci_candidates/{}", i);
    if (pci[i] > mx.row_bytes)
      place.fail(key, fmt::format("Pci {} is larger than row_bytes ({}); Ws = row_bytes / Pci must be at least 1",
                                  pci[i], mx.row_bytes));
    if (i > 0 && pci[i] >= pci[i - 1])
      place.fail(key, fmt::format("list Pci candidates from largest to smallest without repeats; {} follows {}",
                                  pci[i], pci[i - 1]));
  }
  // kmax = (L1 - Ncu) * Ws + 1 needs at least one row per CU in the first buffer.
  if (mx.first_buffer_rows < mx.cus_per_slave)
    place.fail("first_buffer_rows", fmt::format("{} rows is fewer than cus_per_slave ({}); each CU needs its own row",
                                                mx.first_buffer_rows, mx.cus_per_slave));
  if (mx.relay_enabled && mx.relay_bytes < mx.row_bytes)
    place.fail("relay_bytes", fmt::format("{} bytes cannot hold one data row of row_bytes ({})", mx.relay_bytes,
                                          mx.row_bytes));
}

namespace {
void check_matrix(const CoreConfig& core, const SectionPlace& place) {
  check_matrix_unit_config(core.block<MatrixUnitConfig>(MatrixUnitConfig::kSection), place);
}
}  // namespace

CoreSection matrix_unit_config_section() {
  return {MatrixUnitConfig::kSection, "matrix", MatrixUnitConfig{}, matrix_keys(), check_matrix};
}

}  // namespace npusim
