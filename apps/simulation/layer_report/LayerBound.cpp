#include "apps/simulation/layer_report/LayerBound.h"

#include <fmt/format.h>

#include "models/dma/DmaConfig.h"
#include "sim/config/BankedDramChecks.h"

namespace npusim {

namespace {

// The instance of one kind of resource with the most cycles: `bytes[i]` over `rate(i)`.
template <typename Rate, typename Name>
void add_busiest(std::vector<ResourceLoad>& out, const std::vector<std::uint64_t>& bytes, Rate&& rate, Name&& name) {
  ResourceLoad most;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const double r = rate(i);
    if (bytes[i] == 0 || r <= 0) continue;
    const double cycles = double(bytes[i]) / r;
    if (cycles > most.cycles) most = {name(i), cycles};
  }
  if (most.cycles > 0) out.push_back(most);
}

double dma_rate(const HardwareConfig& hw, std::size_t core, const char* section) {
  const CoreConfig& kind = hw.core_of(std::uint32_t(core));
  return kind.blocks.has(section) ? kind.block<DmaConfig>(section).bytes_per_cycle : 0;
}

// The links: each cluster's into the fabric, then (NUMA) each pair's, busiest of all.
void add_links(std::vector<ResourceLoad>& out, const LayerTraffic& t, const HardwareConfig& hw) {
  std::vector<ResourceLoad> links;
  const InterconnectConfig& ic = hw.chip.interconnect;
  add_busiest(links, t.cluster_link, [&](std::size_t) { return ic.cluster_link_bytes_per_cycle; },
              [](std::size_t c) { return fmt::format("link {}", c); });
  const std::size_t clusters = hw.chip.clusters;
  add_busiest(links, t.pair_link, [&](std::size_t) { return ic.inter_cluster_link_bytes_per_cycle; },
              [&](std::size_t i) { return fmt::format("link {}-{}", i / clusters, i % clusters); });
  if (links.empty()) return;
  out.push_back(links.size() == 2 && links[1].cycles > links[0].cycles ? links[1] : links[0]);
}

}  // namespace

LayerBound layer_bound(double compute_cycles, double dram_cycles, const LayerTraffic& t, const HardwareConfig& hw) {
  LayerBound b;
  if (compute_cycles > 0) b.busiest.push_back({"compute", compute_cycles});
  const double channel = channel_peak_bytes_per_cycle(hw.chip.dram, hw.chip.clock_mhz);
  add_busiest(b.busiest, t.dram_channel, [&](std::size_t) { return channel; },
              [](std::size_t c) { return fmt::format("channel {}", c); });
  add_busiest(b.busiest, t.load_dma, [&](std::size_t k) { return dma_rate(hw, k, "load_dma"); },
              [](std::size_t k) { return fmt::format("load dma {}", k); });
  add_busiest(b.busiest, t.store_dma, [&](std::size_t k) { return dma_rate(hw, k, "store_dma"); },
              [](std::size_t k) { return fmt::format("store dma {}", k); });
  add_links(b.busiest, t, hw);
  if (hw.chip.cluster_cache.enabled)
    add_busiest(b.busiest, t.cache_port, [&](std::size_t) { return hw.chip.cluster_cache.bytes_per_cycle; },
                [](std::size_t c) { return fmt::format("cache {}", c); });
  // Last, so that on a tie the resource that carries the bytes is named, not DRAM as a whole.
  if (dram_cycles > 0) b.busiest.push_back({"dram", dram_cycles});
  b.limit = {"compute", 0};
  for (const ResourceLoad& r : b.busiest)
    if (r.cycles > b.limit.cycles) b.limit = r;
  return b;
}

}  // namespace npusim
