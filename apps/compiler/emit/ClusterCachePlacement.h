#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "apps/compiler/emit/DramPlacement.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// Activations kept in the off-core cluster caches between a layer and its readers
// (seed002 ¶202-207: a conv's input neuron cut along h or w is stored in `cluster` and
// exchanged at the `cluster` level; §3.1 S13: the pieces go to the caches in turn). Each
// cluster's cache keeps its run of the tensor's rows; the bottom of every cache stays for
// model-ci partial sums (`reserved`). A kept tensor holds its bytes for the whole run (no
// reuse between tensors): the caches fill in layer order, and a tensor whose runs do not
// all fit stays in DRAM (a spill the compiler decides, timed as DRAM traffic).
class ClusterCachePlacement {
 public:
  ClusterCachePlacement() = default;
  ClusterCachePlacement(const ChipConfig& chip, std::uint64_t reserved);

  // Runs of (bytes, cluster) in element order, each in its cluster's cache; none when one
  // of them does not fit.
  std::optional<DramTensor> allocate(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs);
  // Bytes kept per cluster so far.
  std::uint64_t used(std::uint32_t cluster) const;

 private:
  std::uint64_t capacity_ = 0, reserved_ = 0;
  std::vector<std::uint64_t> top_;  // per cluster: the lowest byte kept (free below, down to `reserved`)
};

}  // namespace npusim
