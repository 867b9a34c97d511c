#include "models/cluster_cache/ClusterCache.h"

#include <string>

namespace npusim {

namespace {
ScratchpadConfig as_ram(const ClusterCacheConfig& cfg) { return {cfg.capacity_bytes, cfg.bytes_per_cycle, cfg.latency}; }
}  // namespace

ClusterCache::ClusterCache(sc_core::sc_module_name name, std::uint32_t cluster, const ClusterCacheConfig& cfg,
                           bool functional)
    : Scratchpad(name, "cluster" + std::to_string(cluster) + ".cache", as_ram(cfg), functional, "cache") {}

}  // namespace npusim
