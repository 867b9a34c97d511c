// Streams of row hits (README "Speed"): while every queued request of the direction served is
// a hit on its bank's open row, the command the search would pick is known without searching.
// Every other bank offers a READ/WRITE too, and none of those can go before the column floor
// (tCCD_S after the last column command in its rank, a burst and the read-to-write gap in
// another); so when the oldest request's own column command is due by the floor, it goes
// next (on a tie, the oldest row hit wins). A refresh that closes one of the stream's rows ends
// the stream before it: until then no bank offers a PRE or ACT. Anything else (the oldest not
// due by the floor, a request that is not such a hit, the direction changing) ends the stream
// and the search takes over with every offer worked out afresh, as if it had never stopped.
#include <algorithm>

#include "models/banked_dram/BankedChannel.h"

namespace npusim {

namespace {
constexpr DramClock kNever = ~DramClock{0};
}  // namespace

// Begins a stream when every queued request of the direction served hits its bank's open
// row; lists them oldest first.
void BankedChannel::enter_stream() {
  const std::size_t w = write_mode_ ? 1 : 0;
  std::uint64_t row = 0;
  DramClock horizon = kNever;
  stream_scratch_.clear();
  for (const std::size_t bank : busy_[w]) {
    if (!timing_.row_open(bank, row)) return;
    for (const Request& r : queues_[w][bank]) {
      if (r.place.row != row) return;
      stream_scratch_.emplace_back(r.age, bank);
    }
    horizon = std::min(horizon, timing_.open_until(bank));
  }
  if (stream_scratch_.empty()) return;
  std::sort(stream_scratch_.begin(), stream_scratch_.end());
  for (std::size_t i = 0; i < stream_scratch_.size(); ++i) stream_order_[i] = stream_scratch_[i].second;
  stream_head_ = 0, stream_size_ = stream_scratch_.size();
  stream_horizon_ = horizon, stream_write_ = write_mode_, streaming_ = true;
}

// The search resumes with no kept offer: offers worked out afresh are what it would have had.
bool BankedChannel::leave_stream() {
  streaming_ = false;
  for (KeptOffer& o : offers_) o.state = Freshness::None;
  return false;
}

// A request entering keeps the stream if it is of its direction and hits its bank's open row.
bool BankedChannel::joins_stream(const Incoming& in) const {
  std::uint64_t row = 0;
  return in.write == stream_write_ && timing_.row_open(timing_.index_of(in.place), row) && row == in.place.row;
}

// One step of the stream, as the search would take it: the head of the line enters if it can
// by the oldest request's column command, else that command goes out. False: the stream ended.
bool BankedChannel::stream_step() {
  const std::size_t w = write_mode_ ? 1 : 0;
  DramClock floor = 0;
  if (write_mode_ != stream_write_ || stream_size_ == 0 || !timing_.column_floor(write_mode_, floor))
    return leave_stream();
  const std::size_t bank = stream_order_[stream_head_];
  const Request& oldest = queues_[w][bank].front();
  const BurstCommands plan = timing_.plan(oldest.place, write_mode_, oldest.admitted);
  if (plan.outcome != RowOutcome::Hit || plan.column > floor || plan.column >= stream_horizon_) return leave_stream();
  const DramClock next_in = head_admission();
  if (next_in != kNever && next_in <= plan.column) {
    if (!joins_stream(incoming_.front())) return leave_stream();
    const std::size_t joining = timing_.index_of(incoming_.front().place);
    admit_head(next_in);
    stream_order_[(stream_head_ + stream_size_++) % stream_order_.size()] = joining;
    stream_horizon_ = std::min(stream_horizon_, timing_.open_until(joining));
    return true;
  }
  issue(Choice{bank, 0, Command::Column, plan.column, oldest.age});
  ++streamed_;
  stream_head_ = (stream_head_ + 1) % stream_order_.size(), --stream_size_;
  return true;
}

}  // namespace npusim
