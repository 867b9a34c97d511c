#pragma once
#include <algorithm>
#include <cstdint>

#include "sim/config/HardwareConfig.h"

namespace npusim {

// Which channel serves a DRAM address. With interleaving, consecutive blocks of
// `interleave_bytes` rotate over the channels; without it (interleave 0) each
// channel owns one contiguous slice, which is how NUMA chips give every cluster
// its own local memory.
class DramAddressMap {
 public:
  explicit DramAddressMap(const DramConfig& cfg)
      : channels_(cfg.channels),
        interleave_(cfg.interleave_bytes),
        slice_((cfg.capacity_bytes + cfg.channels - 1) / cfg.channels) {}

  std::uint32_t channel_of(std::uint64_t address) const {
    if (interleave_ == 0) return static_cast<std::uint32_t>(std::min<std::uint64_t>(address / slice_, channels_ - 1));
    return static_cast<std::uint32_t>((address / interleave_) % channels_);
  }

  // Bytes from `address` up to the end of the block that one channel serves.
  std::uint64_t bytes_in_block(std::uint64_t address) const {
    std::uint64_t block = interleave_ == 0 ? slice_ : interleave_;
    return block - address % block;
  }

  std::uint32_t channels() const { return channels_; }

 private:
  std::uint32_t channels_;
  std::uint64_t interleave_;
  std::uint64_t slice_;
};

}  // namespace npusim
