#pragma once
#include <cstdint>
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
  std::uint64_t acts = 0, pres = 0;     // commands (a closed page's auto-precharges among the PREs)
  std::uint64_t refreshes = 0;          // refreshes begun up to last_data (all-bank: per rank; per-bank: per bank)
  DramClock read_wait = 0;              // Σ over reads of arrival to READ command: read queue occupancy × time
  DramClock write_wait = 0;             // the same for writes, from acceptance to WRITE
  DramClock last_data = 0;              // end of the latest data burst
  LatencyHistogram read_latency;  // arrival to last data beat
};

// One channel's controller (README "Controller"). Requests enter a bounded read queue or
// write queue in arrival order (one waits while its queue is full, and those behind it
// wait too). Commands go out one at a time, the earliest first: among the queued requests
// of the direction being served, each bank offers the command of its oldest request to
// its open row (a row hit's READ/WRITE), else of its oldest request (PRE or ACT); a bank
// whose open row still has requests queued is not precharged. On a tie the row hit goes
// first, then the oldest. Reads are served unless the write queue reached `write_high`
// (then writes drain down to `write_low`) or no read is queued (writes go in the idle
// time). No clock ticks: each step looks at the banks that have requests.
class BankedChannel {
 public:
  // How the next command is found; all three issue the same commands at the same clocks.
  // Streamed (the default): a run of row hits goes out without searching the banks while the
  // oldest request provably goes next (README "Speed"); PerCommand: every command is searched
  // for among the kept offers (the reference the tests hold streams against); Exhaustive:
  // every bank's offer is worked out again before each command (the reference for kept offers).
  enum class Scheduling { Streamed, PerCommand, Exhaustive };
  explicit BankedChannel(const BankedDramConfig& cfg, Scheduling scheduling = Scheduling::Streamed);

  // The clock after the last data beat of the reads.
  DramClock read(const std::vector<BurstPlace>& bursts, DramClock arrival);
  // The clock the last of the writes was accepted into the write queue.
  DramClock write(const std::vector<BurstPlace>& bursts, DramClock arrival);
  // A stream handed over without waiting for answers (bench/dram_patterns): submit()
  // queues requests in order, finish() serves them all, queued writes included.
  void submit(const BurstPlace& burst, bool write, DramClock arrival);
  void finish();

  const ChannelCounters& counters() const { return counters_; }
  // When the data bus carried the bursts issued since the last call: [start, end), or
  // start >= end when none went out. The bursts of successive calls never overlap.
  std::pair<DramClock, DramClock> take_bus_span();
  const BankTimingState& timing() const { return timing_; }
  // For the tests: every command from now on is added to `log` (bank, kind, clock), and how
  // many READ/WRITEs went out in streams.
  struct Issued {
    std::size_t bank;
    int kind;  // 0 PRE, 1 ACT, 2 READ/WRITE
    DramClock at;
    bool operator==(const Issued& o) const { return bank == o.bank && kind == o.kind && at == o.at; }
  };
  void log_commands(std::vector<Issued>* log) { log_ = log; }
  std::uint64_t streamed_commands() const { return streamed_; }

 private:
  struct Request {
    BurstPlace place;
    DramClock arrival = 0, admitted = 0;
    std::uint64_t age = 0;  // admission order
    bool started = false;   // a PRE or ACT went out for it (its row outcome is counted)
  };
  struct Incoming {
    BurstPlace place;
    bool write = false;
    DramClock arrival = 0;
  };
  // The line of requests handed over: those submitted one by one (a vector read from `head`,
  // emptied whenever all is read), then the booking being served, read in place from the
  // caller's bursts (copying every burst cost more than serving it in a stream).
  struct Line {
    std::vector<Incoming> items;
    std::size_t head = 0;
    const BurstPlace* booking = nullptr;
    std::size_t booking_left = 0;
    bool booking_write = false;
    DramClock booking_arrival = 0;

    bool empty() const { return head == items.size() && booking_left == 0; }
    Incoming front() const {
      return head < items.size() ? items[head] : Incoming{*booking, booking_write, booking_arrival};
    }
    void pop_front() {
      if (head == items.size()) {
        ++booking, --booking_left;
      } else if (++head == items.size()) {
        items.clear(), head = 0;
      }
    }
    void push_back(const Incoming& in) { items.push_back(in); }
    void borrow(const std::vector<BurstPlace>& bursts, bool write, DramClock arrival) {
      booking = bursts.data(), booking_left = bursts.size(), booking_write = write, booking_arrival = arrival;
    }
    // The booking's bursts not yet taken are copied: the caller's vector is not kept.
    void keep() {
      for (; booking_left > 0; --booking_left) items.push_back({*booking++, booking_write, booking_arrival});
    }
  };
  enum class Command { Pre, Act, Column };
  // The command a bank offers next: for request `index` of its queue, at clock `at`.
  struct Choice {
    std::size_t bank = 0, index = 0;
    Command command = Command::Column;
    DramClock at = 0;
    std::uint64_t age = 0;
  };
  // A bank's offer as last worked out. Stale: commands went out since, which can only have
  // delayed it (its time is then a lower bound, raised by what went out); None: work it out.
  enum class Freshness { None, Stale, Fresh };
  struct KeptOffer {
    Choice choice;
    Freshness state = Freshness::None;
  };
  using BankQueue = std::vector<Request>;  // oldest first; a few entries, so a vector
  using BankQueues = std::vector<BankQueue>;

  template <class Done>
  void run(Done done);
  template <class Done>
  void admit_together(DramClock at, Done done);
  // A stream: every queued request of the direction served is a row hit, listed oldest first.
  bool stream_step();
  void enter_stream();
  bool leave_stream();
  bool plan_oldest();
  std::size_t next_slot(std::size_t slot) const { return slot + 1 < stream_.size() ? slot + 1 : 0; }  // no division a burst
  bool joins_stream(const Incoming& in) const;
  void update_mode();
  bool drain_under_way() const;
  bool best(Choice& out);
  void age_offers(const Choice& done);
  bool offer(const BankQueue& queue, std::size_t bank, Choice& out) const;
  DramClock head_admission() const;
  void admit_head(DramClock at);
  bool new_pick(std::size_t bank, const BurstPlace& joining) const;
  static bool better(const Choice& a, const Choice& b);
  void issue(const Choice& c);
  void forget_bank(std::size_t w, std::size_t bank);
  void column_out(std::size_t bank, Request& r, DramClock at);
  Request enter_queue(DramClock at);
  void count_start(Request& r, Command first);
  void finish_column(const Request& r, bool write, DramClock column);

  BankTimingState timing_;
  ChannelCounters counters_;
  bool last_was_write_ = false;
  DramClock span_start_ = ~DramClock{0}, span_end_ = 0;  // data of the bursts since take_bus_span()
  BankQueues queues_[2];                // [0] reads, [1] writes
  std::vector<std::size_t> busy_[2];    // the banks with queued requests, per direction
  std::size_t queued_[2] = {0, 0};      // requests in each queue
  DramClock room_at_[2] = {0, 0};       // the clock since which each queue has a free slot
  Line incoming_;                       // handed over, not yet in a queue
  std::vector<KeptOffer> offers_;       // per bank, of the direction offers_write_ says
  bool offers_write_ = false;
  Scheduling scheduling_;
  // The stream under way (streaming_): its queued requests, out of their banks' queues, oldest
  // first (a ring of stream_.size() slots from stream_head_), and the clock before which every
  // bank of the stream keeps its row open (the first refresh that closes one).
  bool streaming_ = false, stream_write_ = false;
  bool stream_planned_ = false;  // stream_due_ is the oldest's READ/WRITE clock
  DramClock stream_due_ = 0;
  std::vector<Request> stream_;
  std::size_t stream_head_ = 0, stream_size_ = 0;
  DramClock stream_horizon_ = 0;
  std::vector<std::pair<std::uint64_t, const Request*>> stream_scratch_;  // (age, request) when entering
  std::uint64_t streamed_ = 0;
  std::vector<Issued>* log_ = nullptr;
  DramClock last_admitted_ = 0;
  std::uint64_t ages_ = 0;
  bool write_mode_ = false, draining_ = false;  // draining: from write_high down to write_low
  // The booking being served: its requests not yet done (reads: READ issued; writes:
  // accepted), and the clock it is done.
  std::uint64_t booking_left_ = 0;
  bool booking_write_ = false;
  DramClock next_refresh_ = 0;  // the next refresh start after last_data: counters_.refreshes moves then
  DramClock booking_done_ = 0;
};

}  // namespace npusim
