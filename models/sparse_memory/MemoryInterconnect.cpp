#include "models/sparse_memory/MemoryInterconnect.h"

namespace npusim {

namespace {
std::uint32_t benes_stages(std::uint32_t ports) {
  std::uint32_t log2 = 0;
  while ((1u << log2) < ports) ++log2;
  return log2 == 0 ? 1 : 2 * log2 - 1;
}
}  // namespace

MemoryInterconnect::MemoryInterconnect(MemoryInterconnectKind kind, std::uint32_t units, std::uint64_t stage_cycles)
    : kind_(kind), units_(units), benes_stages_(benes_stages(units)), stage_cycles_(stage_cycles) {}

bool MemoryInterconnect::reaches(std::uint32_t compute_unit, std::uint32_t memory_unit) const {
  if (compute_unit == memory_unit) return true;
  if (kind_ == MemoryInterconnectKind::Switch2x2) return memory_unit + 1 == compute_unit;
  return kind_ == MemoryInterconnectKind::Benes && compute_unit < units_ && memory_unit < units_;
}

std::uint32_t MemoryInterconnect::stages(std::uint32_t compute_unit, std::uint32_t memory_unit) const {
  if (kind_ == MemoryInterconnectKind::Static) return 0;
  // Through the interconnect even to its own unit once one is fitted (cluster 500).
  return kind_ == MemoryInterconnectKind::Switch2x2 ? 1 : benes_stages_;
}

SubmapDispatcher::SubmapDispatcher(const MemoryInterconnect& net, std::vector<std::deque<std::uint32_t>> queues,
                                   std::vector<std::uint64_t> work)
    : net_(net), queues_(std::move(queues)), work_(std::move(work)), left_(queues_.size(), 0) {
  for (std::size_t i = 0; i < queues_.size(); ++i)
    for (std::uint32_t id : queues_[i]) left_[i] += work_[id];
}

std::optional<SubmapDispatcher::Pick> SubmapDispatcher::next(std::uint32_t compute_unit) {
  std::optional<std::uint32_t> from;
  if (compute_unit < queues_.size() && !queues_[compute_unit].empty()) {
    from = compute_unit;
  } else {
    for (std::uint32_t m = 0; m < queues_.size(); ++m)
      if (!queues_[m].empty() && net_.reaches(compute_unit, m) && (!from || left_[m] > left_[*from])) from = m;
  }
  if (!from) return std::nullopt;
  const std::uint32_t id = queues_[*from].front();
  queues_[*from].pop_front();
  left_[*from] -= work_[id];
  return Pick{id, *from};
}

void dispatch_submaps(SubmapDispatcher& dispatcher, std::uint32_t units, std::uint64_t start,
                      const std::function<std::uint64_t(std::uint32_t, const SubmapDispatcher::Pick&, std::uint64_t)>& run) {
  std::vector<std::uint64_t> free_at(units, start);
  std::vector<bool> idle(units, false);
  for (;;) {
    std::uint32_t u = units;
    for (std::uint32_t k = 0; k < units; ++k)
      if (!idle[k] && (u == units || free_at[k] < free_at[u])) u = k;
    if (u == units) return;
    if (const auto pick = dispatcher.next(u))
      free_at[u] = run(u, *pick, free_at[u]);
    else
      idle[u] = true;
  }
}

}  // namespace npusim
