#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "apps/compiler/emit/ActivationHeap.h"
#include "models/dram/DramAddressMap.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// Every DRAM region the compiler allocates starts on this boundary.
inline std::uint64_t dram_aligned(std::uint64_t bytes) { return (bytes + 255) / 256 * 256; }

// A tensor's bytes [first, first + bytes) (element order) stored at `address`: in DRAM,
// or, for an activation kept in the cluster caches, at that offset of cluster `cache`'s cache.
struct DramChunk {
  std::uint64_t first = 0, bytes = 0, address = 0;
  std::optional<std::uint32_t> cache;
};

// A DRAM tensor as the compiler placed it: one chunk, or one per memory that uses it (or
// one per cluster cache that keeps it, ClusterCachePlacement.h).
struct DramTensor {
  std::vector<DramChunk> chunks;
  std::uint64_t address() const { return chunks.empty() ? 0 : chunks.front().address; }
  bool in_caches() const { return !chunks.empty() && chunks.front().cache.has_value(); }
  // The byte range [begin, end) of the tensor, cut where it crosses from one chunk to the next.
  std::vector<DramChunk> pieces(std::uint64_t begin, std::uint64_t end) const;
};

// Where the compiler puts tensors in DRAM (seed002 §3.4, NUMA-aware placement).
// When every channel owns one contiguous slice of the address space
// (/chip/dram/interleave_bytes 0) and there are several, each slice is a separate
// memory and the local memory of a cluster (models/interconnect: channel c belongs to
// cluster floor(c * clusters / channels)); a cluster whose index no channel maps to
// uses channel floor(cluster * channels / clusters). Tensors then go to the memory of
// the cluster that uses them, unless the fabric serves another layout sooner: an
// activation takes whichever of its readers' or producer's per-cluster runs, or those
// balanced over every memory, keeps the busiest channel or inter-cluster link shortest
// (RunLayout.h); a model-mode layer's weights lie over every memory when the links then
// stay less busy than the channels (models/interconnect/README.md, "Placement").
// Otherwise (interleaved channels, or one) every tensor is packed in workload order
// from address 0, 256-byte aligned.
// When a region per tensor does not fit, the compiler places again with
// reuse_dead_tensors: constants still grow up from the bottom of each memory, while
// activations share an ActivationHeap at its top, where a dead activation's bytes go to
// later ones.
class DramPlacement {
 public:
  explicit DramPlacement(const ChipConfig& chip);

  bool separate_memories() const { return memories_ > 1; }
  std::uint32_t memories() const { return memories_; }
  std::uint32_t memory_of_cluster(std::uint32_t cluster) const;
  // The memory (channel) an address is in; 0 when the memories are not separate.
  std::uint32_t memory_of(std::uint64_t address) const;
  // Calls fn(channel, bytes) for the bytes each channel serves of the ranges `ranges` names:
  // ranges(add) calls add(address, bytes, times) for each, `times` counting ranges that split
  // over the channels alike (share_period).
  // A pitched operand has a range per row; its channels are walked once, not per row.
  template <typename Ranges, typename Fn>
  void for_each_channel_of(Ranges&& ranges, Fn&& fn) const {
    shares_.assign(map_.channels(), 0);
    ranges([&](std::uint64_t address, std::uint64_t bytes, std::uint64_t times) { add_shares(address, bytes, times); });
    for (std::uint32_t channel = 0; channel < map_.channels(); ++channel)
      if (shares_[channel] > 0) fn(channel, shares_[channel]);
  }
  // Rows `pitch` apart split over the channels alike every this many rows (DramAddressMap).
  std::uint64_t share_period(std::uint64_t pitch, std::uint64_t rows) const { return map_.share_period(pitch, rows); }

  // `bytes` (256-byte aligned) at the end of memory `memory`'s used part.
  std::uint64_t allocate(std::uint64_t bytes, std::uint32_t memory = 0);
  // A tensor stored as consecutive runs of bytes, each in the memory named next to it
  // (memory 0 for all of them when the memories are not separate).
  DramTensor allocate_runs(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs);
  // An activation, stored as allocate_runs would: packed like the rest, or (reusing) from
  // the heaps, with `previous` receiving the dead tensors whose bytes it takes.
  DramTensor allocate_activation(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs,
                                 std::vector<int>& previous);
  // Starts over with nothing placed, activations from now on in the heaps.
  void reuse_dead_tensors();
  bool reusing() const { return !heaps_.empty(); }
  // Activation `owner` (a layer index) is dead: its bytes may hold later activations.
  void release(const DramTensor& t, int owner);
  bool fits() const;

  // Throws InputError naming `file` when some memory holds more than it has.
  void check_capacity(const std::string& file) const;

 private:
  ChipConfig chip_;
  DramAddressMap map_;
  std::uint32_t memories_ = 1;
  std::uint64_t slice_ = 0;             // bytes of one memory
  std::vector<std::uint64_t> used_;     // per memory, bytes from its start
  std::vector<ActivationHeap> heaps_;   // per memory, when reusing
  DramTensor allocate_chunks(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs,
                             const std::function<std::uint64_t(std::uint64_t, std::uint32_t)>& at);
  std::uint64_t needed(std::uint32_t memory) const;  // bytes of memory `memory` in use
  void add_shares(std::uint64_t address, std::uint64_t bytes, std::uint64_t times) const;
  mutable std::vector<std::uint64_t> shares_;      // for_each_channel's per-channel sums
  mutable std::vector<std::uint64_t> one_range_;  // add_shares' split of one range
};

}  // namespace npusim
