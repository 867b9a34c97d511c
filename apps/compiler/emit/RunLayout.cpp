// Layouts of an activation over separate memories and the fabric time they cost.
#include "apps/compiler/emit/RunLayout.h"

#include <algorithm>

namespace npusim {
namespace {

void add_access(const MemoryRuns& layout, const RowAccess& a, FabricLoad& bytes) {
  std::uint64_t row = 0;
  for (const auto& [rows, memory] : layout) {
    const std::uint64_t lo = std::max(row, a.first), hi = std::min(row + rows, a.end);
    if (lo < hi) bytes.add(memory, a.memory, double(hi - lo) * double(a.bytes_per_row));
    row += rows;
  }
}

}  // namespace

void FabricLoad::add(std::uint32_t memory, std::uint32_t from, double bytes) {
  channel[memory] += bytes;
  if (memory != from) link[std::size_t(std::min(memory, from)) * channel.size() + std::max(memory, from)] += bytes;
}

double FabricLoad::busiest_channel_cycles(const FabricRates& fabric) const {
  return *std::max_element(channel.begin(), channel.end()) / fabric.channel_bytes_per_cycle;
}

double FabricLoad::busiest_link_cycles(const FabricRates& fabric) const {
  return *std::max_element(link.begin(), link.end()) / fabric.link_bytes_per_cycle;
}

double busiest_cycles(const MemoryRuns& layout, const std::vector<RowAccess>& accesses, const FabricRates& fabric,
                      const FabricLoad& others) {
  FabricLoad bytes = others;
  for (const RowAccess& a : accesses) add_access(layout, a, bytes);
  return std::max(bytes.busiest_channel_cycles(fabric), bytes.busiest_link_cycles(fabric));
}

FabricLoad spread_load(const std::vector<double>& reads, std::uint32_t memories) {
  FabricLoad load(memories);
  for (std::uint32_t a = 0; a < memories; ++a)
    for (std::uint32_t b = 0; reads[a] > 0 && b < memories; ++b) load.add(b, a, reads[a] / memories);
  return load;
}

bool links_less_busy(const FabricLoad& load, const FabricRates& fabric) {
  return load.busiest_link_cycles(fabric) < load.busiest_channel_cycles(fabric);
}

// On a NUMA chip a cluster whose cores took more bands would otherwise keep its channel
// busy while another channel idles (an SMP chip spreads every tensor over all channels).
MemoryRuns balance_runs(const MemoryRuns& runs, std::uint32_t memories) {
  std::vector<std::uint64_t> held(memories, 0);
  std::uint64_t total = 0;
  for (const auto& [rows, memory] : runs) held[memory] += rows, total += rows;
  const std::uint64_t share = (total + memories - 1) / memories;
  // Within an eighth of an even share, the channels stay as busy as each other; a remote
  // row would only add its hop.
  if (*std::max_element(held.begin(), held.end()) <= share + share / 8) return runs;
  std::vector<std::uint64_t> spare(memories, 0), excess(memories, 0);
  for (std::uint32_t m = 0; m < memories; ++m) {
    if (held[m] > share) excess[m] = held[m] - share;
    else spare[m] = share - held[m];
  }
  MemoryRuns out;
  auto add = [&out](std::uint64_t rows, std::uint32_t memory) {
    if (rows == 0) return;
    if (!out.empty() && out.back().second == memory) out.back().first += rows;
    else out.emplace_back(rows, memory);
  };
  for (const auto& [rows, memory] : runs) {
    const std::uint64_t moved = std::min(rows, excess[memory]);
    excess[memory] -= moved;
    add(rows - moved, memory);
    for (std::uint64_t left = moved, m = 0; left > 0; ++m) {
      const std::uint64_t take = std::min(left, spare[m]);
      spare[m] -= take, left -= take;
      add(take, std::uint32_t(m));
    }
  }
  return out;
}

// The writes happen while the producer runs and the reads while the reader does, so
// their busiest resources add up rather than overlap.
MemoryRuns fastest_layout(const std::vector<MemoryRuns>& local, const std::vector<RowAccess>& writes,
                          const std::vector<RowAccess>& reads, const FabricRates& fabric,
                          const FabricLoad& while_written, const FabricLoad& while_read) {
  std::vector<MemoryRuns> candidates = local;
  for (const MemoryRuns& runs : local) candidates.push_back(balance_runs(runs, fabric.memories));
  auto cycles = [&](const MemoryRuns& layout) {
    return busiest_cycles(layout, writes, fabric, while_written) + busiest_cycles(layout, reads, fabric, while_read);
  };
  std::size_t best = 0;
  double fewest = cycles(candidates[0]);
  for (std::size_t k = 1; k < candidates.size(); ++k) {
    const double c = cycles(candidates[k]);
    if (c < fewest) fewest = c, best = k;
  }
  return candidates[best];
}

}  // namespace npusim
