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
}  // namespace

// Begins a stream when every queued request of the direction served hits its bank's open
// row: they leave their banks' queues for the stream's, oldest first.
void BankedChannel::enter_stream() {
  const std::size_t w = write_mode_ ? 1 : 0;
  std::uint64_t row = 0;
  DramClock horizon = kNever;
  stream_scratch_.clear();
  for (const std::size_t bank : busy_[w]) {
    if (!timing_.row_open(bank, row)) return;
    for (const Request& r : queues_[w][bank]) {
      if (r.place.row != row) return;
      stream_scratch_.emplace_back(r.age, &r);
    }
    horizon = std::min(horizon, timing_.open_until(bank));
  }
  if (stream_scratch_.empty()) return;
  std::sort(stream_scratch_.begin(), stream_scratch_.end());
  for (std::size_t i = 0; i < stream_scratch_.size(); ++i) stream_[i] = *stream_scratch_[i].second;
  for (const std::size_t bank : busy_[w]) queues_[w][bank].clear();
  busy_[w].clear();
  stream_head_ = 0, stream_size_ = stream_scratch_.size();
  stream_horizon_ = horizon, stream_write_ = write_mode_, streaming_ = true, stream_planned_ = false;
}

// The stream's requests go back to their banks' queues (oldest first, as they entered), and
// the search resumes with no kept offer: offers worked out afresh are what it would have had.
bool BankedChannel::leave_stream() {
  const std::size_t w = stream_write_ ? 1 : 0;
  for (; stream_size_ > 0; --stream_size_, stream_head_ = next_slot(stream_head_)) {
    const Request& r = stream_[stream_head_];
    const std::size_t bank = timing_.index_of(r.place);
    if (queues_[w][bank].empty()) busy_[w].push_back(bank);
    queues_[w][bank].push_back(r);
  }
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
// by the oldest request's column command (or at all, when none is queued), else that command
// goes out. False: the stream ended. The oldest's plan holds until a command goes out.
bool BankedChannel::stream_step() {
  if (write_mode_ != stream_write_) return leave_stream();
  if (stream_size_ > 0 && !(stream_planned_ || plan_oldest())) return leave_stream();
  if (stream_size_ > 0 && stream_due_ >= stream_horizon_) return leave_stream();  // a request since closes the horizon
  const DramClock due = stream_size_ > 0 ? stream_due_ : kNever;
  const DramClock next_in = head_admission();
  if (next_in != kNever && next_in <= due) {
    if (!joins_stream(incoming_.front())) return leave_stream();
    stream_horizon_ = std::min(stream_horizon_, timing_.open_until(timing_.index_of(incoming_.front().place)));
    const std::size_t tail = stream_head_ + stream_size_++;
    stream_[tail < stream_.size() ? tail : tail - stream_.size()] = enter_queue(next_in);
    return true;
  }
  if (stream_size_ == 0) return leave_stream();
  Request& oldest = stream_[stream_head_];
  column_out(timing_.index_of(oldest.place), oldest, stream_due_);
  ++streamed_;
  stream_head_ = next_slot(stream_head_), --stream_size_, stream_planned_ = false;
  return true;
}

// The oldest request's READ/WRITE, if it provably goes next: a row hit due by the column floor
// (the caller holds it against the stream's horizon, which requests entering may lower).
bool BankedChannel::plan_oldest() {
  DramClock floor = 0;
  if (!timing_.column_floor(stream_write_, floor)) return false;
  const Request& oldest = stream_[stream_head_];
  DramClock column = 0;  // what plan() gives a hit
  if (!timing_.hit_column(oldest.place, stream_write_, oldest.admitted, column) || column > floor) return false;
  stream_due_ = column, stream_planned_ = true;
  return true;
}

}  // namespace npusim
