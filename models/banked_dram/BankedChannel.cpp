#include "models/banked_dram/BankedChannel.h"

#include <algorithm>

namespace npusim {

namespace {
}  // namespace

BankedChannel::BankedChannel(const BankedDramConfig& cfg, Scheduling scheduling)
    : timing_(cfg), offers_(timing_.bank_count()), scheduling_(scheduling),
      stream_(std::max(cfg.read_queue, cfg.write_queue)) {
  for (BankQueues& q : queues_) q.resize(timing_.bank_count());
}

// Reads are served unless a drain runs (entered at write_high, left at write_low) or the
// read queue is empty and writes wait (the bus would idle otherwise).
void BankedChannel::update_mode() {
  const BankedDramConfig& cfg = timing_.config();
  if (draining_ && queued_[1] <= cfg.write_low) draining_ = false;
  if (queued_[1] >= cfg.write_high) draining_ = true;
  write_mode_ = draining_ || (queued_[1] > 0 && queued_[0] == 0);
}

bool BankedChannel::drain_under_way() const {
  const BankedDramConfig& cfg = timing_.config();
  return queued_[1] >= cfg.write_high || (draining_ && queued_[1] > cfg.write_low);
}

// A bank's next command: its oldest request to the open row (the hit), else its oldest.
// The request's plan (BankTimingState) places all its commands clear of refreshes; the
// first of them is what the bank offers now.
bool BankedChannel::offer(const BankQueue& queue, std::size_t bank, Choice& out) const {
  if (queue.empty()) return false;
  std::size_t pick = 0;
  std::uint64_t row = 0;
  if (timing_.row_open(bank, row))
    for (std::size_t i = 0; i < queue.size(); ++i)
      if (queue[i].place.row == row) { pick = i; break; }
  const Request& r = queue[pick];
  const BurstCommands plan = timing_.plan(r.place, write_mode_, r.admitted);
  out.bank = bank, out.index = pick, out.age = r.age;
  if (plan.outcome == RowOutcome::Conflict) out.command = Command::Pre, out.at = plan.pre;
  else if (plan.outcome == RowOutcome::Miss) out.command = Command::Act, out.at = plan.act;
  else out.command = Command::Column, out.at = plan.column;
  return true;
}

bool BankedChannel::better(const Choice& a, const Choice& b) {
  const bool a_hit = a.command == Command::Column, b_hit = b.command == Command::Column;
  return a.at < b.at || (a.at == b.at && (a_hit > b_hit || (a_hit == b_hit && a.age < b.age)));
}

// FR-FCFS over the banks: the earliest command; on a tie a column command (row hit), then the
// oldest. A stale offer's time is a lower bound, so when the least offer is fresh it wins;
// when it is stale it is worked out again and the search repeats.
bool BankedChannel::best(Choice& out) {
  if (scheduling_ == Scheduling::Exhaustive || offers_write_ != write_mode_)
    for (KeptOffer& o : offers_) o.state = Freshness::None;
  offers_write_ = write_mode_;
  const BankQueues& queues = queues_[write_mode_ ? 1 : 0];
  for (;;) {
    KeptOffer* least = nullptr;
    for (const std::size_t bank : busy_[write_mode_ ? 1 : 0]) {
      KeptOffer& o = offers_[bank];
      if (o.state == Freshness::None) offer(queues[bank], bank, o.choice), o.state = Freshness::Fresh;
      if (!least || better(o.choice, least->choice)) least = &o;
    }
    if (!least) return false;
    if (least->state == Freshness::Fresh) return out = least->choice, true;
    offer(queues[least->choice.bank], least->choice.bank, least->choice);
    least->state = Freshness::Fresh;
  }
}

// After command `done`, every other bank still offers the same request's same command (its
// open row did not change), no sooner than before: a READ/WRITE elsewhere keeps every column
// command at least a burst later (tCCD, turnarounds), an ACT keeps its rank's ACTs tRRD_S later.
void BankedChannel::age_offers(const Choice& done) {
  const BankedDramConfig& cfg = timing_.config();
  const std::size_t per_rank = std::size_t{cfg.bank_groups} * cfg.banks_per_group;
  for (const std::size_t bank : busy_[offers_write_ ? 1 : 0]) {
    KeptOffer& o = offers_[bank];
    if (o.state == Freshness::None) continue;
    if (bank == done.bank) { o.state = Freshness::None; continue; }
    o.state = Freshness::Stale;
    if (done.command == Command::Column && o.choice.command == Command::Column)
      o.choice.at = std::max(o.choice.at, done.at + timing_.burst_clocks());
    if (done.command == Command::Act && o.choice.command == Command::Act && bank / per_rank == done.bank / per_rank)
      o.choice.at = std::max(o.choice.at, done.at + cfg.trrd_s);
  }
}

// The head of the incoming line enters its queue once it has arrived, the one ahead of it
// has entered, and its queue has a slot.
DramClock BankedChannel::head_admission() const {
  if (incoming_.empty()) return kNever;
  const Incoming in = incoming_.front();
  const std::size_t w = in.write ? 1 : 0;
  const std::size_t slots = in.write ? timing_.config().write_queue : timing_.config().read_queue;
  if (queued_[w] >= slots) return kNever;
  return std::max({in.arrival, last_admitted_, room_at_[w]});
}

// Whether a request joining `bank`'s queue can change what the bank offers: it is younger
// than all queued there, so it only can when the bank offered nothing or a PRE that the new
// request, a hit on the open row, now blocks (and goes before).
bool BankedChannel::new_pick(std::size_t bank, const BurstPlace& joining) const {
  const KeptOffer& o = offers_[bank];
  std::uint64_t row = 0;
  if (o.state == Freshness::None) return true;
  return o.choice.command == Command::Pre && timing_.row_open(bank, row) && row == joining.row;
}

void BankedChannel::admit_head(DramClock at) {
  const Incoming in = incoming_.front();
  const std::size_t w = in.write ? 1 : 0, bank = timing_.index_of(in.place);
  if (queues_[w][bank].empty()) busy_[w].push_back(bank);
  queues_[w][bank].push_back(enter_queue(at));
  if (in.write == offers_write_ && new_pick(bank, in.place)) offers_[bank].state = Freshness::None;
}

// The head of the line enters its queue at `at`: the request it becomes there.
BankedChannel::Request BankedChannel::enter_queue(DramClock at) {
  const Incoming in = incoming_.front();
  incoming_.pop_front();
  ++queued_[in.write ? 1 : 0];
  last_admitted_ = at;
  if (in.write && booking_write_ && booking_left_ > 0) --booking_left_, booking_done_ = std::max(booking_done_, at);
  return Request{in.place, in.arrival, at, ages_++, false};
}

// The head enters at `at`, before the search's choice, and so do those behind it that can
// enter at the same clock: every offer they add is no sooner than `at` (a request's commands
// follow its entry) and the others do not move, so the search would let them in one by one.
// Stopped where the direction served changes or the booking is done. (Streamed only: the
// per-command reference lets each in after a search.)
template <class Done>
void BankedChannel::admit_together(DramClock at, Done done) {
  const bool write = write_mode_;
  do {
    admit_head(at);
    if (done()) return;
    update_mode();
  } while (write_mode_ == write && head_admission() == at);
}

// Issues commands, the earliest first, admitting requests as they come, until `done()`.
template <class Done>
void BankedChannel::run(Done done) {
  Choice c;
  while (!done()) {
    update_mode();
    if (streaming_ && stream_step()) continue;
    c.at = kNever;
    const bool any = best(c);
    const DramClock next_in = head_admission();
    if (!any && next_in == kNever) return;  // nothing queued and nothing can enter
    if (next_in != kNever && next_in <= c.at) {
      if (scheduling_ == Scheduling::Streamed) admit_together(next_in, done); else admit_head(next_in);
      continue;
    }
    issue(c);
    age_offers(c);
    if (scheduling_ == Scheduling::Streamed && c.command == Command::Column) enter_stream();
  }
}

void BankedChannel::count_start(Request& r, Command first) {
  if (r.started) return;
  r.started = true;
  ChannelCounters& n = counters_;
  (first == Command::Column ? n.row_hits : first == Command::Act ? n.row_misses : n.row_conflicts)++;
}

void BankedChannel::issue(const Choice& c) {
  const std::size_t w = write_mode_ ? 1 : 0;
  BankQueue& queue = queues_[w][c.bank];
  Request& r = queue[c.index];
  if (c.command == Command::Column) {
    column_out(c.bank, r, c.at);
    queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(c.index));
    if (queue.empty()) forget_bank(w, c.bank);
    return;
  }
  count_start(r, c.command);
  if (log_) log_->push_back({c.bank, static_cast<int>(c.command), c.at});
  if (c.command == Command::Pre) {
    ++counters_.pres;
    return timing_.commit_pre(r.place, c.at);
  }
  ++counters_.acts;
  timing_.commit_act(r.place, c.at);
}

// The bank has no request of direction `w` left: it leaves the busy list (order does not
// matter: offers never tie, ages differ).
void BankedChannel::forget_bank(std::size_t w, std::size_t bank) {
  offers_[bank].state = Freshness::None;
  auto& busy = busy_[w];
  *std::find(busy.begin(), busy.end(), bank) = busy.back();
  busy.pop_back();
}

// Request r's READ/WRITE goes out at `at` (it leaves its queue: the caller takes it out).
void BankedChannel::column_out(std::size_t bank, Request& r, DramClock at) {
  const bool write = write_mode_;
  count_start(r, Command::Column);
  if (log_) log_->push_back({bank, static_cast<int>(Command::Column), at});
  timing_.commit_column(r.place, write, at);
  if (timing_.config().page_policy == PagePolicy::Closed) ++counters_.pres;
  finish_column(r, write, at);
  const std::size_t slots = write ? timing_.config().write_queue : timing_.config().read_queue;
  if (queued_[write ? 1 : 0]-- == slots) room_at_[write ? 1 : 0] = at;  // the full queue has a slot from now
}

// A column command went out: the data bus, the counters and the booking move on.
void BankedChannel::finish_column(const Request& r, bool write, DramClock column) {
  ChannelCounters& n = counters_;
  n.turnarounds += (n.read_bursts + n.write_bursts) > 0 && write != last_was_write_ ? 1 : 0;
  last_was_write_ = write;
  const DramClock data_end = column + timing_.data_delay(write) + timing_.burst_clocks();
  n.last_data = std::max(n.last_data, data_end);
  if (n.last_data >= next_refresh_) {
    n.refreshes = timing_.refreshes_before(n.last_data);
    next_refresh_ = timing_.next_refresh_after(n.last_data);
  }
  span_start_ = std::min(span_start_, data_end - timing_.burst_clocks());
  span_end_ = std::max(span_end_, data_end);
  if (write) {
    ++n.write_bursts;
    n.write_wait += column - r.admitted;
    return;
  }
  ++n.read_bursts;
  n.read_wait += column - r.arrival;
  n.read_latency.add(data_end - r.arrival);
  if (!booking_write_ && booking_left_ > 0) --booking_left_, booking_done_ = std::max(booking_done_, data_end);
}

std::pair<DramClock, DramClock> BankedChannel::take_bus_span() {
  const std::pair<DramClock, DramClock> span{span_start_, span_end_};
  span_start_ = kNever, span_end_ = 0;
  return span;
}

void BankedChannel::submit(const BurstPlace& burst, bool write, DramClock arrival) {
  incoming_.push_back({burst, write, arrival});
}

void BankedChannel::finish() {
  booking_left_ = 0;
  run([this] { return incoming_.empty() && queued_[0] == 0 && queued_[1] == 0; });
}

// A booking is served until its reads have their data (or its writes are in the queue)
// and no drain is under way: a drain, once begun, runs to write_low whatever arrives.
DramClock BankedChannel::read(const std::vector<BurstPlace>& bursts, DramClock arrival) {
  booking_write_ = false, booking_left_ = bursts.size(), booking_done_ = arrival;
  incoming_.borrow(bursts, false, arrival);
  run([this] { return booking_left_ == 0 && !drain_under_way(); });
  incoming_.keep();
  return booking_done_;
}

DramClock BankedChannel::write(const std::vector<BurstPlace>& bursts, DramClock arrival) {
  booking_write_ = true, booking_left_ = bursts.size(), booking_done_ = arrival;
  incoming_.borrow(bursts, true, arrival);
  run([this] { return booking_left_ == 0 && !drain_under_way(); });
  incoming_.keep();
  return booking_done_;
}

}  // namespace npusim
