#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "sim/config/BankedDramChecks.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// Which channel serves a DRAM address. With interleaving, consecutive blocks of
// `interleave_bytes` rotate over the channels (the banked model's address map may set the
// block instead, by naming a channel field: channel_interleave_bytes); without it (interleave 0) each
// channel owns one contiguous slice, which is how NUMA chips give every cluster
// its own local memory.
class DramAddressMap {
 public:
  explicit DramAddressMap(const DramConfig& cfg)
      : channels_(cfg.channels),
        interleave_(channel_interleave_bytes(cfg)),
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

  // Bytes of [address, address + bytes) each channel serves, added to `shares` (one per
  // channel). Closed form over the whole stripes, so a long range costs O(channels).
  void add_channel_shares(std::uint64_t address, std::uint64_t bytes, std::vector<std::uint64_t>& shares) const {
    while (bytes > 0) {
      const std::uint64_t head = std::min(bytes, bytes_in_block(address));
      shares[channel_of(address)] += head;
      address += head;
      bytes -= head;
      if (interleave_ == 0 || bytes < interleave_) continue;
      // Whole blocks from here: each channel gets every channels_-th one.
      const std::uint64_t blocks = bytes / interleave_, first = channel_of(address);
      for (std::uint64_t c = 0; c < std::min<std::uint64_t>(blocks, channels_); ++c)
        shares[(first + c) % channels_] += ((blocks - c + channels_ - 1) / channels_) * interleave_;
      address += blocks * interleave_;
      bytes -= blocks * interleave_;
    }
  }

  // The address within its channel: the channel's blocks packed end to end.
  std::uint64_t local_address(std::uint64_t address) const {
    if (interleave_ == 0) return address - std::uint64_t{channel_of(address)} * slice_;
    return address / (interleave_ * channels_) * interleave_ + address % interleave_;
  }

  // Each channel's pieces of [address, address + bytes) as (channel, local address, bytes),
  // block by block.
  template <class Piece>
  void for_each_piece(std::uint64_t address, std::uint64_t bytes, Piece piece) const {
    while (bytes > 0) {
      const std::uint64_t head = std::min(bytes, bytes_in_block(address));
      piece(channel_of(address), local_address(address), head);
      address += head;
      bytes -= head;
    }
  }

  std::uint32_t channels() const { return channels_; }

  // Rows `pitch` bytes apart split over the channels alike every this many rows: with
  // interleaving a range's shares depend only on its address modulo the stripe (one block
  // per channel). Without interleaving no two rows need agree: `rows` (each row its own).
  std::uint64_t share_period(std::uint64_t pitch, std::uint64_t rows) const {
    if (interleave_ == 0) return rows;
    const std::uint64_t stripe = interleave_ * channels_;
    return std::min(rows, stripe / std::gcd(pitch % stripe, stripe));
  }

 private:
  std::uint32_t channels_;
  std::uint64_t interleave_;
  std::uint64_t slice_;
};

}  // namespace npusim
