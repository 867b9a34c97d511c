#include "sim/config/ConfigCrossChecks.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/config/BankedDramChecks.h"
#include "sim/config/ConfigSchema.h"

namespace npusim {

namespace {

std::string engine_list_text() {
  std::string text;
  for (const auto& name : known_engine_names()) text += (text.empty() ? "'" : ", '") + name + "'";
  return text;
}

std::string kind_pointer(const CoreConfig& core) {
  return core.kind == "core" ? "/core" : "/core_kinds/" + pointer_token(core.kind);
}

void check_engines(const CoreConfig& core, const std::string& file) {
  const auto& engines = core.engines;
  if (core.has_engine("load")) return;
  // Every other engine works on data that a load brought on chip, and a core
  // without engines has nothing to run any instruction on.
  throw InputError(file, kind_pointer(core) + "/engines",
                   fmt::format("{}; every core needs 'load', since nothing else brings data on chip, plus the engines "
                               "its instructions use (of {})",
                               engines.empty() ? "lists no engine" : "lists no 'load' engine",
                               engine_list_text()));
}

// Each registered section's own rules, for one core kind.
void check_sections(const CoreConfig& core, const std::string& file) {
  for (const CoreSection& section : core_sections())
    if (section.check) section.check(core, SectionPlace{file, kind_pointer(core) + "/" + section.name});
}

// Cores of `kind` in `cluster`.
std::uint32_t cores_in(const CoreConfig& kind, std::uint32_t cluster) {
  const auto& in = kind.in_clusters;
  bool present = in.empty() || std::find(in.begin(), in.end(), cluster) != in.end();
  return present ? kind.per_cluster : 0;
}

void check_core_kinds(const HardwareConfig& cfg, const std::string& file) {
  for (const auto& kind : cfg.core_kinds)
    for (std::size_t i = 0; i < kind.in_clusters.size(); ++i)
      if (kind.in_clusters[i] >= cfg.chip.clusters)
        throw InputError(file, fmt::format("{}/in_clusters/{}", kind_pointer(kind), i),
                         fmt::format("cluster {} does not exist; the chip has {} cluster(s), numbered 0..{}",
                                     kind.in_clusters[i], cfg.chip.clusters, cfg.chip.clusters - 1));
  for (std::uint32_t c = 0; c < cfg.chip.clusters; ++c) {
    std::uint32_t taken = 0;
    for (const auto& kind : cfg.core_kinds) {
      taken += cores_in(kind, c);
      if (taken > cfg.chip.cores_per_cluster)
        throw InputError(file, kind_pointer(kind) + "/per_cluster",
                         fmt::format("cluster {} would hold {} cores of the kinds so far, more than "
                                     "/chip/cores_per_cluster ({})",
                                     c, taken, cfg.chip.cores_per_cluster));
    }
  }
}

void check_chip(const ChipConfig& chip, const CrossCheckPlace& at) {
  const std::string& file = at.file();
  const auto& net = chip.interconnect;
  if (net.numa_remote_hops < net.numa_local_hops)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.interconnect.numa_remote_hops),
                     fmt::format("{} is fewer than numa_local_hops ({}); remote memory cannot be closer",
                                 net.numa_remote_hops, net.numa_local_hops));
  // Each channel must own the same whole number of stripes (or one equal slice).
  const auto& dram = chip.dram;
  std::uint64_t unit = std::uint64_t{dram.channels} * std::max<std::uint64_t>(dram.interleave_bytes, 1);
  if (dram.capacity_bytes % unit != 0)
    at.fail({NPUSIM_CONFIG_PATH(chip.dram.capacity_bytes), NPUSIM_CONFIG_PATH(chip.dram.channels),
             NPUSIM_CONFIG_PATH(chip.dram.interleave_bytes)},
            fmt::format("{} bytes does not split evenly over {} channel(s){}", dram.capacity_bytes,
                                 dram.channels,
                                 dram.interleave_bytes ? fmt::format(" in {}-byte stripes", dram.interleave_bytes)
                                                       : std::string()));
}

}  // namespace

void check_cross_fields(const HardwareConfig& cfg, const CrossCheckPlace& at) {
  const std::string& file = at.file();
  check_chip(cfg.chip, at);
  check_banked_dram(cfg.chip.dram, at);
  for (const CoreConfig* kind : cfg.kinds()) {
    check_engines(*kind, file);
    check_sections(*kind, file);
  }
  check_core_kinds(cfg, file);
}

void resolve_sections(HardwareConfig& cfg, const std::string& file) {
  std::vector<CoreConfig*> kinds = {&cfg.core};
  for (CoreConfig& kind : cfg.core_kinds) kinds.push_back(&kind);
  for (CoreConfig* core : kinds)
    for (const CoreSection& section : core_sections()) {
      if (!section.resolve) continue;
      const SectionPlace place{file, kind_pointer(*core) + "/" + section.name};
      section.resolve(*core, *cfg.energy, place);
      if (section.check) section.check(*core, place);
    }
}

std::vector<std::uint32_t> place_core_kinds(const HardwareConfig& cfg) {
  std::vector<std::uint32_t> kind_of_core;
  for (std::uint32_t c = 0; c < cfg.chip.clusters; ++c) {
    std::vector<std::uint32_t> cluster;
    for (std::uint32_t k = 0; k < cfg.core_kinds.size(); ++k)
      cluster.insert(cluster.end(), cores_in(cfg.core_kinds[k], c), k + 1);
    cluster.insert(cluster.begin(), cfg.chip.cores_per_cluster - cluster.size(), 0);
    kind_of_core.insert(kind_of_core.end(), cluster.begin(), cluster.end());
  }
  return kind_of_core;
}

}  // namespace npusim
