#include "models/sparse_memory/WeightMemory.h"

#include <algorithm>
#include <vector>

#include "models/compression_block/CompressedRows.h"

namespace npusim {

WeightMemory::WeightMemory(sc_core::sc_module_name name, std::uint64_t capacity_bytes, double dma_bytes_per_cycle,
                           std::uint64_t request_bytes, WeightRefill refill, StatGroup& stats)
    : sc_module(name), dma("dma_port", dma_bytes_per_cycle, request_bytes), capacity_(capacity_bytes),
      refill_(refill) {
  value_bytes_ = &stats.counter("weight_value_bytes", "bytes", "non-zero weight values loaded from DRAM");
  index_bytes_ = &stats.counter("weight_index_bytes", "bytes", "weight indices loaded from DRAM");
  refills_ = &stats.counter("weight_refills", "count", "kernel parts beyond the first that did not fit the buffers");
  if (refill != WeightRefill::Uncharged)
    stall_ = &stats.counter("weight_refill_stall", "cycles", "cycles the units waited for a kernel part to load");
}

std::uint64_t WeightMemory::part_nonzeros() const {
  const std::uint64_t set = refill_ == WeightRefill::Double ? capacity_ / 2 : capacity_;
  return std::max<std::uint64_t>(1, set / kCompressedEntryBytes);
}

std::uint64_t WeightMemory::parts(std::uint64_t nonzeros) const {
  if (refill_ == WeightRefill::Uncharged) {
    const std::uint64_t bytes = kCompressedEntryBytes * nonzeros;
    return bytes > capacity_ ? (bytes + capacity_ - 1) / capacity_ : 1;
  }
  return std::max<std::uint64_t>(1, (nonzeros + part_nonzeros() - 1) / part_nonzeros());
}

Cycles WeightMemory::load_range(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t first,
                                std::uint64_t count, Cycles start) {
  const Cycles v = dma.transfer(false, values_address + first, count, nullptr, start);
  const Cycles i = dma.transfer(false, indices_address + 4 * first, 4 * count, nullptr, start);
  *value_bytes_ += count;
  *index_bytes_ += 4 * count;
  return std::max(v, i);
}

Cycles WeightMemory::load(std::uint64_t values_address, std::uint64_t indices_address, std::uint64_t nonzeros,
                          Cycles start) {
  *refills_ += parts(nonzeros) - 1;
  const std::uint64_t first = refill_ == WeightRefill::Uncharged ? nonzeros : std::min(nonzeros, part_nonzeros());
  return load_range(values_address, indices_address, 0, first, start);
}

Cycles WeightMemory::refill_timeline(WeightRefill refill, std::uint64_t nonzeros, std::uint64_t per,
                                     Cycles first_loaded, Cycles computed, const PartLoad& load) {
  const std::uint64_t n = (nonzeros + per - 1) / per;
  const Cycles span = computed - first_loaded;
  // The units' share of the span for the weights [0, w): in proportion to the weights.
  auto share_until = [&](std::uint64_t w) { return Cycles(double(span) * double(w) / double(nonzeros)); };
  std::vector<Cycles> used(n);  // when the units are done with part k
  used[0] = first_loaded + share_until(std::min(per, nonzeros));
  Cycles loaded = first_loaded;
  for (std::uint64_t k = 1; k < n; ++k) {
    // Single: the one set frees when part k-1 is used. Double: part k goes into the set
    // part k-2 used, after the path has delivered part k-1.
    const Cycles freed = refill == WeightRefill::Single ? used[k - 1] : (k >= 2 ? used[k - 2] : first_loaded);
    const std::uint64_t from = k * per, count = std::min(per, nonzeros - from);
    loaded = load(from, count, std::max(freed, loaded));
    used[k] = std::max(used[k - 1], loaded) + share_until(from + count) - share_until(from);
  }
  return std::max(computed, used.back());
}

Cycles WeightMemory::finish_parts(std::uint64_t values_address, std::uint64_t indices_address,
                                  std::uint64_t nonzeros, Cycles first_loaded, Cycles computed) {
  if (refill_ == WeightRefill::Uncharged || parts(nonzeros) <= 1) return computed;
  const Cycles done = refill_timeline(refill_, nonzeros, part_nonzeros(), first_loaded, computed,
                                      [&](std::uint64_t first, std::uint64_t count, Cycles issue) {
                                        return load_range(values_address, indices_address, first, count, issue);
                                      });
  *stall_ += done - computed;
  return done;
}

}  // namespace npusim
