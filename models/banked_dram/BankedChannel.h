#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "models/banked_dram/BankTimingState.h"

namespace npusim {

// How many read bursts took each latency: an array for the common short ones, a map beyond.
class LatencyHistogram {
 public:
  void add(DramClock latency) {
    if (latency < kShort) {
      if (shorts_.empty()) shorts_.resize(kShort);
      ++shorts_[latency];
    } else {
      ++longs_[latency];
    }
  }
  // Calls f(latency, bursts) in increasing latency.
  template <class F>
  void for_each(F f) const {
    for (std::size_t l = 0; l < shorts_.size(); ++l)
      if (shorts_[l]) f(DramClock{l}, shorts_[l]);
    for (const auto& [latency, count] : longs_) f(latency, count);
  }

 private:
  static constexpr DramClock kShort = 4096;
  std::vector<std::uint64_t> shorts_;
  std::map<DramClock, std::uint64_t> longs_;
};

// What one channel did, in DRAM clocks (BankedDram converts to chip cycles).
struct ChannelCounters {
  std::uint64_t read_bursts = 0, write_bursts = 0;
  std::uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;
  std::uint64_t turnarounds = 0;        // the bus switched between reading and writing
  DramClock read_wait = 0;              // Σ over reads of arrival to READ command: read queue occupancy × time
  DramClock write_wait = 0;             // the same for writes, from acceptance to WRITE
  DramClock last_data = 0;              // end of the latest data burst
  LatencyHistogram read_latency;  // arrival to last data beat
};

// One channel's controller. Reads are served at once, FR-FCFS over the oldest `read_queue`
// of the transaction's bursts: the one whose column command can go soonest (an open row
// usually), the oldest on a tie. Writes are
// posted: each is accepted when the write queue has a slot and waits there until
// `write_high` are queued (then the oldest-first FR-FCFS drain runs down to `write_low`) or
// a write arrives at an idle bus (then every queued write goes). Reads thus have priority
// and writes go in batches, paying one bus turnaround each way per batch.
class BankedChannel {
 public:
  explicit BankedChannel(const BankedDramConfig& cfg) : timing_(cfg) {}

  // The clock after the last data beat of the reads.
  DramClock read(const std::vector<BurstPlace>& bursts, DramClock arrival);
  // The clock the last of the writes was accepted into the write queue.
  DramClock write(const std::vector<BurstPlace>& bursts, DramClock arrival);

  const ChannelCounters& counters() const { return counters_; }
  // When the data bus carried the bursts issued since the last call: [start, end), or
  // start >= end when none went out. The bursts of successive calls never overlap.
  std::pair<DramClock, DramClock> take_bus_span();
  const BankTimingState& timing() const { return timing_; }

 private:
  struct Queued {
    BurstPlace place;
    DramClock arrival = 0;
  };
  // The index of the burst to go next, and its commands in `plan`.
  std::size_t first_ready(const std::deque<Queued>& queue, std::size_t window, bool write, BurstCommands& plan) const;
  DramClock issue(std::deque<Queued>& queue, std::size_t i, bool write, const BurstCommands& c);
  void drain(std::size_t keep);
  DramClock accept_write(DramClock arrival);
  bool bus_idle_at(DramClock t) const { return counters_.last_data <= t; }

  BankTimingState timing_;
  ChannelCounters counters_;
  bool last_was_write_ = false;
  DramClock span_start_ = ~DramClock{0}, span_end_ = 0;  // data of the bursts since take_bus_span()
  std::deque<Queued> reads_;   // the read being served
  std::deque<Queued> writes_;
  std::deque<DramClock> write_issued_;  // WRITE clocks in issue order (also time order)
  std::uint64_t write_issued_base_ = 0;  // issue index of write_issued_.front()
  std::uint64_t writes_accepted_ = 0;
};

}  // namespace npusim
