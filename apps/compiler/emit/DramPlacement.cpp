#include "apps/compiler/emit/DramPlacement.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/interconnect/Interconnect.h"
#include "sim/common/InputError.h"

namespace npusim {

std::vector<DramChunk> DramTensor::pieces(std::uint64_t begin, std::uint64_t end) const {
  std::vector<DramChunk> out;
  for (const auto& c : chunks) {
    const std::uint64_t lo = std::max(begin, c.first), hi = std::min(end, c.first + c.bytes);
    if (lo < hi) out.push_back({lo, hi - lo, c.address + (lo - c.first), c.cache});
  }
  return out;
}

DramPlacement::DramPlacement(const ChipConfig& chip) : chip_(chip), map_(chip.dram) {
  if (chip.dram.interleave_bytes == 0 && chip.dram.channels > 1) memories_ = chip.dram.channels;
  slice_ = memories_ > 1 ? chip.dram.capacity_bytes / memories_ : chip.dram.capacity_bytes;
  used_.assign(memories_, 0);
}

std::uint32_t DramPlacement::memory_of_cluster(std::uint32_t cluster) const {
  if (memories_ == 1) return 0;
  for (std::uint32_t c = 0; c < memories_; ++c)
    if (home_cluster(chip_, c) == cluster) return c;
  return std::uint32_t(std::uint64_t(cluster) * memories_ / chip_.clusters);
}

void DramPlacement::add_shares(std::uint64_t address, std::uint64_t bytes, std::uint64_t times) const {
  if (times == 1) return map_.add_channel_shares(address, bytes, shares_);
  one_range_.assign(map_.channels(), 0);
  map_.add_channel_shares(address, bytes, one_range_);
  for (std::size_t channel = 0; channel < one_range_.size(); ++channel) shares_[channel] += one_range_[channel] * times;
}

std::uint32_t DramPlacement::memory_of(std::uint64_t address) const {
  return memories_ == 1 ? 0 : map_.channel_of(address);
}

std::uint64_t DramPlacement::allocate(std::uint64_t bytes, std::uint32_t memory) {
  const std::uint64_t at = std::uint64_t(memory) * slice_ + used_.at(memory);
  used_[memory] = dram_aligned(used_[memory] + bytes);
  return at;
}

DramTensor DramPlacement::allocate_chunks(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs,
                                          const std::function<std::uint64_t(std::uint64_t, std::uint32_t)>& at) {
  DramTensor t;
  std::uint64_t first = 0;
  for (const auto& [bytes, memory] : runs) {
    if (bytes == 0) continue;
    t.chunks.push_back({first, bytes, at(bytes, memories_ > 1 ? memory : 0), std::nullopt});
    first += bytes;
  }
  if (t.chunks.empty()) t.chunks.push_back({0, 0, at(0, 0), std::nullopt});
  return t;
}

DramTensor DramPlacement::allocate_runs(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs) {
  return allocate_chunks(runs, [this](std::uint64_t bytes, std::uint32_t memory) { return allocate(bytes, memory); });
}

DramTensor DramPlacement::allocate_activation(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& runs,
                                              std::vector<int>& previous) {
  if (!reusing()) return allocate_runs(runs);
  return allocate_chunks(runs, [&](std::uint64_t bytes, std::uint32_t memory) {
    return heaps_[memory].allocate(dram_aligned(bytes), previous);
  });
}

void DramPlacement::reuse_dead_tensors() {
  used_.assign(memories_, 0);
  heaps_.clear();
  for (std::uint32_t m = 0; m < memories_; ++m) heaps_.emplace_back(std::uint64_t(m) * slice_ + slice_);
}

void DramPlacement::release(const DramTensor& t, int owner) {
  for (const DramChunk& c : t.chunks) heaps_.at(memory_of(c.address)).release(c.address, dram_aligned(c.bytes), owner);
}

std::uint64_t DramPlacement::needed(std::uint32_t memory) const {
  return used_[memory] + (reusing() ? heaps_[memory].depth() : 0);
}

bool DramPlacement::fits() const {
  for (std::uint32_t m = 0; m < memories_; ++m)
    if (needed(m) > slice_) return false;
  return true;
}

void DramPlacement::check_capacity(const std::string& file) const {
  // Reusing: what is left after every dead tensor gave its bytes to later ones.
  const char* even = reusing() ? " even with dead tensors' DRAM reused" : "";
  for (std::uint32_t m = 0; m < memories_; ++m) {
    if (needed(m) <= slice_) continue;
    if (memories_ == 1)
      throw InputError(file, "", fmt::format("the workload's tensors need {} bytes of DRAM{} but the chip has {} bytes",
                                             needed(m), even, chip_.dram.capacity_bytes));
    throw InputError(file, "", fmt::format("the workload's tensors need {} bytes of memory {} (channel {}){} but it "
                                           "holds {} bytes (/chip/dram/capacity_bytes over {} channels)",
                                           needed(m), m + 1, m, even, slice_, memories_));
  }
}

}  // namespace npusim
