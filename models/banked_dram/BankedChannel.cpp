#include "models/banked_dram/BankedChannel.h"

#include <algorithm>

namespace npusim {

// First ready: the burst whose column command can go out soonest, the oldest on a tie. The
// search stops at the first that goes as soon as any burst could (the usual case in a
// stream), so a stream costs one plan per burst, not one per queued burst.
std::size_t BankedChannel::first_ready(const std::deque<Queued>& queue, std::size_t window, bool write,
                                       BurstCommands& plan) const {
  const std::size_t n = std::min(window, queue.size());
  std::size_t best = 0;
  plan.column = ~DramClock{0};
  const DramClock bus_free = timing_.soonest_column(write, 0);  // max with the arrival: the soonest
  for (std::size_t i = 0; i < n; ++i) {
    const BurstCommands c = timing_.plan(queue[i].place, write, queue[i].arrival);
    if (c.column < plan.column) best = i, plan = c;
    if (plan.column <= std::max(bus_free, queue[i].arrival)) break;
  }
  return best;
}

// Books the planned burst and takes it out of its queue; returns its column command's clock.
DramClock BankedChannel::issue(std::deque<Queued>& queue, std::size_t i, bool write, const BurstCommands& c) {
  const Queued q = queue[i];
  if (i == 0) queue.pop_front(); else queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(i));
  timing_.commit(q.place, write, c);
  ChannelCounters& n = counters_;
  (c.outcome == RowOutcome::Hit ? n.row_hits : c.outcome == RowOutcome::Miss ? n.row_misses : n.row_conflicts)++;
  const bool switched = (n.read_bursts + n.write_bursts) > 0 && write != last_was_write_;
  n.turnarounds += switched ? 1 : 0;
  last_was_write_ = write;
  const DramClock data_end = c.column + timing_.data_delay(write) + timing_.burst_clocks();
  n.last_data = std::max(n.last_data, data_end);
  span_start_ = std::min(span_start_, data_end - timing_.burst_clocks());
  span_end_ = std::max(span_end_, data_end);
  if (write) {
    ++n.write_bursts;
    n.write_wait += c.column - q.arrival;
  } else {
    ++n.read_bursts;
    n.read_wait += c.column - q.arrival;
    n.read_latency.add(data_end - q.arrival);
  }
  return c.column;
}

std::pair<DramClock, DramClock> BankedChannel::take_bus_span() {
  const std::pair<DramClock, DramClock> span{span_start_, span_end_};
  span_start_ = ~DramClock{0}, span_end_ = 0;
  return span;
}

DramClock BankedChannel::read(const std::vector<BurstPlace>& bursts, DramClock arrival) {
  std::deque<Queued>& queue = reads_;  // kept between calls: its blocks are reused
  queue.clear();
  for (const BurstPlace& p : bursts) queue.push_back({p, arrival});
  DramClock done = arrival;
  const std::size_t window = timing_.config().read_queue;
  BurstCommands plan;
  while (!queue.empty()) {
    const std::size_t i = first_ready(queue, window, false, plan);
    const DramClock column = issue(queue, i, false, plan);
    done = std::max(done, column + timing_.data_delay(false) + timing_.burst_clocks());
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
  BurstCommands plan;
  while (writes_.size() > keep) {
    const std::size_t i = first_ready(writes_, writes_.size(), true, plan);
    write_issued_.push_back(issue(writes_, i, true, plan));
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
