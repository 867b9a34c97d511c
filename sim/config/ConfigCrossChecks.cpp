#include "sim/config/ConfigCrossChecks.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/config/ConfigSchema.h"

namespace npusim {

namespace {

std::string engine_list_text() {
  std::string text;
  for (const auto& name : known_engine_names()) text += (text.empty() ? "'" : ", '") + name + "'";
  return text;
}

void check_engines(const CoreConfig& core, const std::string& file) {
  const auto& engines = core.engines;
  if (std::find(engines.begin(), engines.end(), "load") != engines.end()) return;
  // Every other engine works on data that a load brought on chip, and a core
  // without engines has nothing to run any instruction on.
  throw InputError(file, NPUSIM_CONFIG_PATH(core.engines),
                   fmt::format("{}; every core needs 'load', since nothing else brings data on chip, plus the engines "
                               "its instructions use (of {})",
                               engines.empty() ? "lists no engine" : "lists no 'load' engine",
                               engine_list_text()));
}

void check_matrix(const MatrixUnitConfig& mx, const std::string& file) {
  // Pci must divide the row (Ws = M / Pci); the Pci search walks the list largest first.
  const auto& pci = mx.pci_candidates;
  for (std::size_t i = 0; i < pci.size(); ++i) {
    std::string location = fmt::format("{}/{}", NPUSIM_CONFIG_PATH(core.matrix.pci_candidates), i);
    if (pci[i] > mx.row_bytes)
      throw InputError(file, location,
                       fmt::format("Pci {} is larger than row_bytes ({}); Ws = row_bytes / Pci must be at least 1",
                                   pci[i], mx.row_bytes));
    if (i > 0 && pci[i] >= pci[i - 1])
      throw InputError(file, location,
                       fmt::format("list Pci candidates from largest to smallest without repeats; {} follows {}",
                                   pci[i], pci[i - 1]));
  }
  // kmax = (L1 - Ncu) * Ws + 1 needs at least one row per CU in the first buffer.
  if (mx.first_buffer_rows < mx.cus_per_slave)
    throw InputError(file, NPUSIM_CONFIG_PATH(core.matrix.first_buffer_rows),
                     fmt::format("{} rows is fewer than cus_per_slave ({}); each CU needs its own row",
                                 mx.first_buffer_rows, mx.cus_per_slave));
  if (mx.relay_enabled && mx.relay_bytes < mx.row_bytes)
    throw InputError(file, NPUSIM_CONFIG_PATH(core.matrix.relay_bytes),
                     fmt::format("{} bytes cannot hold one data row of row_bytes ({})", mx.relay_bytes,
                                 mx.row_bytes));
}

void check_chip(const ChipConfig& chip, const std::string& file) {
  const auto& net = chip.interconnect;
  if (net.numa_remote_hops < net.numa_local_hops)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.interconnect.numa_remote_hops),
                     fmt::format("{} is fewer than numa_local_hops ({}); remote memory cannot be closer",
                                 net.numa_remote_hops, net.numa_local_hops));
  // Each channel must own the same whole number of stripes (or one equal slice).
  const auto& dram = chip.dram;
  std::uint64_t unit = std::uint64_t{dram.channels} * std::max<std::uint64_t>(dram.interleave_bytes, 1);
  if (dram.capacity_bytes % unit != 0)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.capacity_bytes),
                     fmt::format("{} bytes does not split evenly over {} channel(s){}", dram.capacity_bytes,
                                 dram.channels,
                                 dram.interleave_bytes ? fmt::format(" in {}-byte stripes", dram.interleave_bytes)
                                                       : std::string()));
}

}  // namespace

void check_cross_fields(const HardwareConfig& cfg, const std::string& file) {
  check_chip(cfg.chip, file);
  check_engines(cfg.core, file);
  check_matrix(cfg.core.matrix, file);
}

}  // namespace npusim
