#include "apps/compiler/emit/ClusterCachePlacement.h"

namespace npusim {

ClusterCachePlacement::ClusterCachePlacement(const ChipConfig& chip, std::uint64_t reserved)
    : capacity_(chip.cluster_cache.enabled ? chip.cluster_cache.capacity_bytes : 0),
      reserved_(dram_aligned(reserved)),
      top_(chip.clusters, capacity_ / 256 * 256) {}

std::optional<DramTensor> ClusterCachePlacement::allocate(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs) {
  std::vector<std::uint64_t> top = top_;
  DramTensor t;
  std::uint64_t first = 0;
  for (const auto& [bytes, cluster] : runs) {
    if (bytes == 0) continue;
    const std::uint64_t size = dram_aligned(bytes);
    if (cluster >= top.size() || top[cluster] < reserved_ + size) return std::nullopt;
    top[cluster] -= size;
    t.chunks.push_back({first, bytes, top[cluster], cluster});
    first += bytes;
  }
  if (t.chunks.empty()) return std::nullopt;
  top_ = std::move(top);
  return t;
}

std::uint64_t ClusterCachePlacement::used(std::uint32_t cluster) const { return top_.empty() ? 0 : capacity_ / 256 * 256 - top_.at(cluster); }

}  // namespace npusim
