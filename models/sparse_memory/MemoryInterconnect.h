#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

namespace npusim {

// The memory interconnect 525 of seed001 Fig. 5 (§1.4): which feature-map memory units
// a compute unit can take sub-maps from. Static binding (cluster 400) pairs unit i
// with memory unit i; a 2x2 switch also lets memory unit i feed compute unit i+1; a
// Benes network lets any memory unit feed any compute unit.
enum class MemoryInterconnectKind { Static, Switch2x2, Benes };

class MemoryInterconnect {
 public:
  MemoryInterconnect(MemoryInterconnectKind kind, std::uint32_t units, std::uint64_t stage_cycles);

  bool reaches(std::uint32_t compute_unit, std::uint32_t memory_unit) const;
  // Switch stages a sub-map crosses from memory unit to another compute unit (0 for its own).
  std::uint32_t stages(std::uint32_t compute_unit, std::uint32_t memory_unit) const;
  std::uint64_t latency(std::uint32_t compute_unit, std::uint32_t memory_unit) const {
    return stages(compute_unit, memory_unit) * stage_cycles_;
  }
  MemoryInterconnectKind kind() const { return kind_; }

 private:
  MemoryInterconnectKind kind_;
  std::uint32_t units_;
  std::uint32_t benes_stages_;
  std::uint64_t stage_cycles_;
};

// Each memory unit's queue of sub-maps, in the order its DMA loads them, and the choice
// of the next sub-map for a compute unit that has gone idle: its own memory unit's next
// one, else the next one of the reachable memory unit with the most work left.
class SubmapDispatcher {
 public:
  struct Pick {
    std::uint32_t submap;
    std::uint32_t memory_unit;
  };
  // queues[i]: sub-map ids held by memory unit i; work[id]: its non-zero count.
  SubmapDispatcher(const MemoryInterconnect& net, std::vector<std::deque<std::uint32_t>> queues,
                   std::vector<std::uint64_t> work);
  std::optional<Pick> next(std::uint32_t compute_unit);

 private:
  const MemoryInterconnect& net_;
  std::vector<std::deque<std::uint32_t>> queues_;
  std::vector<std::uint64_t> work_;
  std::vector<std::uint64_t> left_;  // per memory unit
};

// Hands every sub-map out: the compute unit that is free first (lowest index on a tie)
// takes its next one until no reachable memory unit has any left. `run(unit, pick,
// free)` computes it and returns when the unit is free again.
void dispatch_submaps(SubmapDispatcher& dispatcher, std::uint32_t units, std::uint64_t start,
                      const std::function<std::uint64_t(std::uint32_t, const SubmapDispatcher::Pick&, std::uint64_t)>& run);

}  // namespace npusim
