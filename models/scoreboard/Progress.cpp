#include "models/scoreboard/Progress.h"

#include <algorithm>

namespace npusim {

std::uint64_t Progress::written_by(Cycles t) const {
  auto after = std::upper_bound(written.begin(), written.end(), t,
                                [](Cycles c, const ProgressPoint& p) { return c < p.at; });
  return after == written.begin() ? 0 : std::prev(after)->bytes;
}

Cycles Progress::time_written(std::uint64_t bytes) const {
  if (bytes == 0) return 0;
  auto it = std::lower_bound(written.begin(), written.end(), bytes,
                             [](const ProgressPoint& p, std::uint64_t b) { return p.bytes < b; });
  return it == written.end() ? done : it->at;
}

std::uint32_t memory_of(const TensorOperand& t, Viewpoint v) {
  switch (t.space) {
    case AddressSpace::Dram: return 0;
    case AddressSpace::Cluster: return t.cluster.value_or(v.cluster);
    default: return v.core;
  }
}

bool same_memory(const TensorOperand& a, Viewpoint va, const TensorOperand& b, Viewpoint vb) {
  return a.space == b.space && memory_of(a, va) == memory_of(b, vb);
}

std::uint64_t granule_bytes(const TensorOperand& t, const std::string& granularity, std::uint64_t tile_bytes) {
  if (granularity == "tiles") return std::max<std::uint64_t>(1, std::min(tile_bytes, t.bytes()));
  const std::size_t cut = (granularity == "rows" && t.shape.size() >= 3) ? 2 : 1;
  std::uint64_t bytes = dtype_size(t.dtype);
  for (std::size_t d = cut; d < t.shape.size(); ++d) bytes *= t.shape[d];
  return std::max<std::uint64_t>(1, std::min(bytes, t.bytes()));
}

}  // namespace npusim
