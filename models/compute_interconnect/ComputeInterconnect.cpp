#include "models/compute_interconnect/ComputeInterconnect.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace npusim {

ComputeInterconnect::ComputeInterconnect(sc_core::sc_module_name name, ComputeInterconnectKind kind,
                                         std::uint32_t units, Cycles stage_cycles, double link_bytes_per_cycle,
                                         StatGroup& stats)
    : sc_module(name), kind_(kind), units_(units), stage_cycles_(stage_cycles),
      link_bytes_per_cycle_(link_bytes_per_cycle) {
  if (const std::string why = misfit(kind, units); !why.empty()) throw std::invalid_argument(why);
  if (kind == ComputeInterconnectKind::Benes) benes_ = std::make_unique<BenesNetwork>(units);
  c_.sends = &stats.counter("border_sends", "count", "border partial-sum blocks sent between compute units");
  c_.bytes = &stats.counter("border_bytes", "bytes", "border partial sums carried between compute units");
  c_.handoff_sends =
      &stats.counter("handoff_sends", "count", "output blocks handed to the next layer's units (seed001 ¶84)");
  c_.handoff_bytes = &stats.counter("handoff_bytes", "bytes", "output bytes handed to the next layer's units");
  c_.passes = &stats.counter("passes", "count", "passes through the compute interconnect");
  c_.conflicts = &stats.counter("conflicts", "count", "sends that waited a pass for a busy output or link");
  c_.busy = &stats.counter("busy_cycles", "cycles", "cycles the compute interconnect carried border sums and handed-off outputs");
}

std::string ComputeInterconnect::misfit(ComputeInterconnectKind kind, std::uint32_t units) {
  if (kind == ComputeInterconnectKind::Switch2x2 && units < 2)
    return fmt::format("a 2x2 switch joins unit i and unit i+1, so it needs at least 2 units, and there is {}", units);
  if (kind == ComputeInterconnectKind::Benes && (units < 2 || (units & (units - 1)) != 0))
    return fmt::format("a Benes network needs a power-of-two port count of at least 2, and there are {} units; "
                       "use 2x2 or none, or a power-of-two units",
                       units);
  return {};
}

std::uint32_t ComputeInterconnect::stages() const {
  if (kind_ == ComputeInterconnectKind::Benes) return benes_->stages();
  return kind_ == ComputeInterconnectKind::Switch2x2 ? 1 : 0;
}

std::uint64_t ComputeInterconnect::round_passes(const std::vector<std::int64_t>& request) {
  if (kind_ != ComputeInterconnectKind::Benes) return chain_passes(request);
  BenesStats stats;
  const std::uint64_t passes = benes_->route_requests(request, stats).size();
  *c_.conflicts += stats.conflicts;
  return passes;
}

// A chain of 2x2 switches: a send to a unit further than the neighbour is relayed unit
// by unit; each link carries one send per direction per pass (lowest unit first).
std::uint64_t ComputeInterconnect::chain_passes(const std::vector<std::int64_t>& request) {
  std::vector<std::int64_t> at(request.size());
  std::iota(at.begin(), at.end(), 0);
  std::uint64_t passes = 0;
  for (bool moving = true; moving; ++passes) {
    moving = false;
    std::set<std::int64_t> links;  // 2 * lower unit + direction
    for (std::size_t u = 0; u < request.size(); ++u) {
      if (request[u] < 0 || at[u] == request[u]) continue;
      const std::int64_t next = at[u] + (request[u] > at[u] ? 1 : -1);
      if (!links.insert(2 * std::min(at[u], next) + (next > at[u])).second) {
        ++*c_.conflicts;
        continue;
      }
      at[u] = next;
      moving = true;
    }
  }
  return passes - 1;
}

std::vector<Cycles> ComputeInterconnect::deliver(const std::vector<BorderSend>& sends, bool hand_off) {
  std::vector<Cycles> arrive(sends.size());
  std::vector<std::size_t> order(sends.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sends[a].ready < sends[b].ready; });
  std::vector<std::deque<std::size_t>> queue(units_);
  for (std::size_t i : order) {
    arrive[i] = sends[i].ready;  // a unit's own sums need no network
    if (sends[i].from_unit != sends[i].to_unit) queue[sends[i].from_unit].push_back(i);
  }
  for (Cycles clock = 0;;) {
    Cycles start = ~Cycles(0);
    for (const auto& q : queue)
      if (!q.empty()) start = std::min(start, sends[q.front()].ready);
    if (start == ~Cycles(0)) return arrive;
    start = std::max(start, clock);
    std::vector<std::int64_t> request(units_, -1);
    std::uint64_t largest = 0;
    for (std::uint32_t u = 0; u < units_; ++u)
      if (!queue[u].empty() && sends[queue[u].front()].ready <= start) {
        request[u] = sends[queue[u].front()].to_unit;
        largest = std::max(largest, sends[queue[u].front()].bytes);
      }
    const std::uint64_t passes = round_passes(request);
    const Cycles pass = stages() * stage_cycles_ + Cycles(std::ceil(double(largest) / link_bytes_per_cycle_));
    clock = start + passes * pass;
    *c_.passes += passes;
    *c_.busy += passes * pass;
    for (std::uint32_t u = 0; u < units_; ++u)
      if (request[u] >= 0) {
        arrive[queue[u].front()] = clock;
        *(hand_off ? c_.handoff_sends : c_.sends) += 1;
        *(hand_off ? c_.handoff_bytes : c_.bytes) += sends[queue[u].front()].bytes;
        queue[u].pop_front();
      }
  }
}

}  // namespace npusim
