#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace npusim {

// How an activation lies over separate memories (NUMA): consecutive runs of map rows,
// each as (rows, memory), in row order.
using MemoryRuns = std::vector<std::pair<std::uint64_t, std::uint32_t>>;

// One cluster's share of a layer's DRAM traffic to an activation: `bytes_per_row` of
// each map row in [first, end), moved by cores whose local memory is `memory`.
struct RowAccess {
  std::uint64_t first = 0, end = 0, bytes_per_row = 0;
  std::uint32_t memory = 0;
};

// What the fabric serves: `memories` separate memories, one DRAM channel each, and a
// link between every two clusters' routing nodes (models/interconnect/README.md).
struct FabricRates {
  std::uint32_t memories = 1;
  double channel_bytes_per_cycle = 1, link_bytes_per_cycle = 1;
};

// Bytes each DRAM channel and each inter-cluster link carries while a layer runs.
struct FabricLoad {
  std::vector<double> channel;  // per memory
  std::vector<double> link;     // between the clusters of memories a < b: [a * memories + b]
  explicit FabricLoad(std::uint32_t memories) : channel(memories, 0), link(std::size_t(memories) * memories, 0) {}
  // `bytes` in memory `memory`, moved by a cluster whose own memory is `from`.
  void add(std::uint32_t memory, std::uint32_t from, double bytes);
  // The cycles the busiest channel, and the busiest link, need for their bytes.
  double busiest_channel_cycles(const FabricRates& fabric) const;
  double busiest_link_cycles(const FabricRates& fabric) const;
};

// The cycles the busiest channel or inter-cluster link needs for `accesses` when the
// activation lies as `layout`, on top of the layer's other traffic `others`: each byte
// busies the channel of its memory, and, when that is not the accessing cluster's
// memory, the link between the two clusters.
double busiest_cycles(const MemoryRuns& layout, const std::vector<RowAccess>& accesses, const FabricRates& fabric,
                      const FabricLoad& others);

// The load of bytes spread evenly over every memory (the weights spread_weights lays
// out) when the cluster of memory a reads `reads[a]` of them: 1/M from each memory, the
// other memories' shares over the links.
FabricLoad spread_load(const std::vector<double>& reads, std::uint32_t memories);
// Whether the busiest link of `load` needs fewer cycles than its busiest channel.
bool links_less_busy(const FabricLoad& load, const FabricRates& fabric);

// Moves rows from memories that hold more than an even share (total / memories, rounded
// up) to the ones that hold less, from the end of each over-full run, keeping row order;
// `runs` unchanged when every memory is within an eighth of the even share.
MemoryRuns balance_runs(const MemoryRuns& runs, std::uint32_t memories);

// The layout (seed002 §3.4) that keeps the fabric busy for the fewest cycles over the
// producer's writes and then the reader's reads, among the `local` layouts (the runs of
// the clusters that use the rows, the preferred first) and each of them balanced over
// every memory (some rows remote, no channel idle). Ties keep the earlier candidate:
// local rows are fewer routing hops away. `local` is not empty.
// `while_written`, `while_read`: the producer's and the reader's other traffic (their
// weights), which the activation's bytes share the channels and links with.
MemoryRuns fastest_layout(const std::vector<MemoryRuns>& local, const std::vector<RowAccess>& writes,
                          const std::vector<RowAccess>& reads, const FabricRates& fabric,
                          const FabricLoad& while_written, const FabricLoad& while_read);

}  // namespace npusim
