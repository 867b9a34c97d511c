#include "models/banked_dram/BankedChannel.h"

#include <algorithm>

namespace npusim {

// First ready: the burst whose column command can go out soonest, the oldest on a tie. The
// search stops at the first that goes as soon as any burst could (the usual case in a
// stream), so a stream costs one plan per burst, not one per queued burst.
std::size_t BankedChannel::first_ready(const std::deque<Queued>& queue, std::size_t window, bool write) const {
  const std::size_t n = std::min(window, queue.size());
  std::size_t best = 0;
  DramClock best_column = ~DramClock{0};
  for (std::size_t i = 0; i < n; ++i) {
    const DramClock column = timing_.plan(queue[i].place, write, queue[i].arrival).column;
    if (column < best_column) best = i, best_column = column;
    if (best_column <= timing_.soonest_column(write, queue[i].arrival)) break;
  }
  return best;
}

DramClock BankedChannel::issue(const Queued& q, bool write) {
  const BurstCommands c = timing_.plan(q.place, write, q.arrival);
  timing_.commit(q.place, write, c);
  ChannelCounters& n = counters_;
  (c.outcome == RowOutcome::Hit ? n.row_hits : c.outcome == RowOutcome::Miss ? n.row_misses : n.row_conflicts)++;
  const bool switched = (n.read_bursts + n.write_bursts) > 0 && write != last_was_write_;
  n.turnarounds += switched ? 1 : 0;
  last_was_write_ = write;
  const DramClock data_end = c.column + timing_.data_delay(write) + timing_.burst_clocks();
  n.last_data = std::max(n.last_data, data_end);
  if (write) {
    ++n.write_bursts;
    n.write_wait += c.column - q.arrival;
  } else {
    ++n.read_bursts;
    n.read_wait += c.column - q.arrival;
    ++n.read_latency[data_end - q.arrival];
  }
  return c.column;
}

DramClock BankedChannel::read(const std::vector<BurstPlace>& bursts, DramClock arrival) {
  std::deque<Queued> queue;
  for (const BurstPlace& p : bursts) queue.push_back({p, arrival});
  DramClock done = arrival;
  const std::size_t window = timing_.config().read_queue;
  while (!queue.empty()) {
    const std::size_t i = first_ready(queue, window, false);
    const DramClock column = issue(queue[i], false);
    done = std::max(done, column + timing_.data_delay(false) + timing_.burst_clocks());
    queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return done;
}

// A write needs a free slot: with write_queue slots, write n enters once write n − slots
// has gone out (writes leave in time order, so that is the n − slots'th WRITE issued).
DramClock BankedChannel::accept_write(DramClock arrival) {
  const std::uint64_t slots = timing_.config().write_queue;
  const std::uint64_t n = writes_accepted_++;
  if (n < slots) return arrival;
  return std::max(arrival, write_issued_.at(n - slots - write_issued_base_));
}

void BankedChannel::drain(std::size_t keep) {
  while (writes_.size() > keep) {
    const std::size_t i = first_ready(writes_, writes_.size(), true);
    write_issued_.push_back(issue(writes_[i], true));
    writes_.erase(writes_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  const std::size_t slots = timing_.config().write_queue;
  while (write_issued_.size() > slots) {
    write_issued_.pop_front();
    ++write_issued_base_;
  }
}

DramClock BankedChannel::write(const std::vector<BurstPlace>& bursts, DramClock arrival) {
  const bool idle = bus_idle_at(arrival);
  DramClock accepted = arrival;
  for (const BurstPlace& p : bursts) {
    accepted = std::max(accepted, accept_write(arrival));
    writes_.push_back({p, accepted});
    if (writes_.size() >= timing_.config().write_high) drain(timing_.config().write_low);
  }
  if (idle) drain(0);
  return accepted;
}

}  // namespace npusim
