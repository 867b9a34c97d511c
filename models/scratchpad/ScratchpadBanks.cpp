#include "models/scratchpad/ScratchpadBanks.h"

#include <algorithm>
#include <numeric>

namespace npusim {

ScratchpadBanks::ScratchpadBanks(const std::string& name, const BankConfig& cfg)
    : name_(name), cfg_(cfg), next_port_(cfg.count, 0) {
  for (std::uint32_t b = 0; b < cfg.count; ++b)
    for (std::uint32_t p = 0; p < cfg.ports; ++p)
      ports_.emplace_back(name + ".bank" + std::to_string(b) + "." + std::to_string(p), "sram_bank",
                          double(cfg.request_bytes) / double(cfg.request_cycles));
}

// Request `request` (its index: address / request_bytes) occupies each bank its bytes span.
void ScratchpadBanks::add_request(std::uint64_t request, std::uint64_t times, std::vector<std::uint64_t>& per_bank) const {
  const std::uint64_t first_unit = request * cfg_.request_bytes / cfg_.interleave_bytes;
  const std::uint64_t units = std::max<std::uint64_t>(1, cfg_.request_bytes / cfg_.interleave_bytes);
  for (std::uint64_t u = 0; u < std::min<std::uint64_t>(units, cfg_.count); ++u)
    per_bank[(first_unit + u) % cfg_.count] += times;
}

// The banks repeat every `period` requests, so a long access is counted over one period.
void ScratchpadBanks::count_requests(std::uint64_t offset, std::uint64_t bytes, std::vector<std::uint64_t>& per_bank) const {
  if (bytes == 0) return;
  const std::uint64_t first = offset / cfg_.request_bytes, last = (offset + bytes - 1) / cfg_.request_bytes;
  const std::uint64_t n = last - first + 1;
  const std::uint64_t per_unit = std::max<std::uint64_t>(1, cfg_.interleave_bytes / cfg_.request_bytes);
  const std::uint64_t period = per_unit * cfg_.count;
  const std::uint64_t full = n / period, rest = n % period;
  for (std::uint64_t i = 0; i < std::min(n, period); ++i) add_request(first + i, full + (i < rest ? 1 : 0), per_bank);
}

Cycles ScratchpadBanks::access(Cycles now, Cycles earliest, std::uint64_t offset, std::uint64_t bytes, bool write) {
  scratch_.assign(cfg_.count, 0);
  count_requests(offset, bytes, scratch_);
  counts_.requests += (bytes == 0) ? 0 : (offset + bytes - 1) / cfg_.request_bytes - offset / cfg_.request_bytes + 1;
  return book(now, earliest, scratch_, write);
}

Cycles ScratchpadBanks::access_strided(Cycles now, Cycles earliest, std::uint64_t offset, std::uint64_t count,
                                       std::uint64_t bytes, std::uint64_t stride, bool write) {
  scratch_.assign(cfg_.count, 0);
  for (std::uint64_t i = 0; i < count && bytes > 0; ++i) {
    const std::uint64_t at = offset + i * stride;
    count_requests(at, bytes, scratch_);
    counts_.requests += (at + bytes - 1) / cfg_.request_bytes - at / cfg_.request_bytes + 1;
  }
  return book(now, earliest, scratch_, write);
}

// Each bank's requests are dealt over its ports round-robin, starting where the bank's last
// access left off; a booking that could not start at `earliest` waited for another access's
// requests on that bank.
Cycles ScratchpadBanks::book(Cycles now, Cycles earliest, const std::vector<std::uint64_t>& per_bank, bool write) {
  Cycles done = std::max(now, earliest);
  for (std::uint32_t b = 0; b < cfg_.count; ++b)
    for (std::uint32_t i = 0; i < cfg_.ports && per_bank[b] > 0; ++i) {
      const std::uint64_t mine = per_bank[b] / cfg_.ports + (i < per_bank[b] % cfg_.ports ? 1 : 0);
      if (mine == 0) continue;
      const std::uint32_t p = (next_port_[b] + i) % cfg_.ports;
      if (i + 1 == std::min<std::uint64_t>(per_bank[b], cfg_.ports)) next_port_[b] = (p + 1) % cfg_.ports;
      const Cycles hold = mine * cfg_.request_cycles;
      const Cycles end = ports_[b * cfg_.ports + p].reserve_cycles(now, earliest, mine * cfg_.request_bytes, hold, write);
      const Cycles waited = end - std::max(now, earliest) - hold;
      if (waited > 0) {
        ++counts_.conflicts, counts_.wait_cycles += waited;
        if (spans_) spans_->add(name_ + ".bank" + std::to_string(b), "queued", end - hold - waited, end - hold);
      }
      done = std::max(done, end);
    }
  return done;
}

}  // namespace npusim
