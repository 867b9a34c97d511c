#include "models/compute_interconnect/BorderExchange.h"

#include <algorithm>

#include "models/compute_interconnect/NoOverlapPartition.h"

namespace npusim {

BorderExchange::BorderExchange(const ConvShape& g, const std::vector<UnitRegion>& own,
                               const std::vector<UnitRegion>& reach, bool functional)
    : g_(g), own_(own), reach_(reach), done_(own.size()) {
  if (functional) map_.assign(std::size_t(g.ho()) * g.wo() * g.co, 0);
}

void BorderExchange::computed(std::uint32_t submap, std::uint32_t unit, Cycles at,
                              const std::vector<std::int64_t>& sums) {
  done_[submap] = {true, unit, at};
  if (map_.empty()) return;
  const UnitRegion& r = reach_[submap];
  const std::size_t row = std::size_t(r.ox1 - r.ox0) * g_.co;
  for (std::uint32_t oy = r.oy0; oy < r.oy1; ++oy) {
    const std::int64_t* from = &sums[(oy - r.oy0) * row];
    std::int64_t* to = &map_[(std::size_t(oy) * g_.wo() + r.ox0) * g_.co];
    for (std::size_t i = 0; i < row; ++i) to[i] += from[i];
  }
}

std::vector<Cycles> BorderExchange::ready(ComputeInterconnect& net) const {
  std::vector<BorderSend> sends;
  std::vector<std::uint32_t> to_submap;
  for (std::uint32_t from = 0; from < done_.size(); ++from)
    for (std::uint32_t to = 0; to < done_.size(); ++to) {
      if (from == to || !done_[from].computed || !done_[to].computed) continue;
      const std::uint64_t outputs = border_outputs(reach_[from], own_[to]);
      if (outputs == 0) continue;
      sends.push_back({done_[from].unit, done_[to].unit, outputs * g_.co * kPartialSumBytes, done_[from].at});
      to_submap.push_back(to);
    }
  const std::vector<Cycles> arrive = net.deliver(sends);
  std::vector<Cycles> ready(done_.size(), 0);
  for (std::uint32_t s = 0; s < done_.size(); ++s) ready[s] = done_[s].at;
  for (std::size_t i = 0; i < sends.size(); ++i) ready[to_submap[i]] = std::max(ready[to_submap[i]], arrive[i]);
  return ready;
}

std::vector<std::int64_t> BorderExchange::own_sums(std::uint32_t submap) const {
  const UnitRegion& r = own_[submap];
  std::vector<std::int64_t> out;
  if (map_.empty() || r.empty()) return out;
  const std::size_t row = std::size_t(r.ox1 - r.ox0) * g_.co;
  out.reserve(row * (r.oy1 - r.oy0));
  for (std::uint32_t oy = r.oy0; oy < r.oy1; ++oy) {
    const std::int64_t* from = &map_[(std::size_t(oy) * g_.wo() + r.ox0) * g_.co];
    out.insert(out.end(), from, from + row);
  }
  return out;
}

}  // namespace npusim
