#include "models/banked_dram/BankTimingState.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace npusim {

BankTimingState::BankTimingState(const BankedDramConfig& cfg)
    : cfg_(cfg),
      banks_(std::size_t{cfg.ranks} * cfg.bank_groups * cfg.banks_per_group),
      shift_(banks_.size(), 0),
      ranks_(cfg.ranks),
      rank_read_(cfg.ranks),
      rank_write_(cfg.ranks),
      group_read_(std::size_t{cfg.ranks} * cfg.bank_groups),
      group_write_(std::size_t{cfg.ranks} * cfg.bank_groups) {
  // Per-bank refresh: bank i's turn comes (i + 1)·tREFI / n into each tREFI, n banks a rank.
  const std::size_t n = banks_.size() / cfg.ranks;
  if (cfg.refresh_mode == RefreshMode::PerBank)
    for (std::size_t i = 0; i < banks_.size(); ++i) shift_[i] = cfg.trefi - (i % n + 1) * cfg.trefi / n;
}

DramClock BankTimingState::outside_refresh(DramClock t, DramClock shift) const {
  const DramClock epoch = refresh_epoch(t, shift);
  if (epoch == 0) return t;
  return std::max(t, refresh_start(epoch, shift) + refresh_window());
}

std::uint64_t BankTimingState::refreshes_before(DramClock end) const {
  if (cfg_.refresh_mode == RefreshMode::AllBank) return refresh_epoch(end, 0) * cfg_.ranks;
  std::uint64_t count = 0;
  for (DramClock shift : shift_) count += refresh_epoch(end, shift);
  return count;
}

DramClock BankTimingState::next_refresh_after(DramClock t) const {
  if (cfg_.refresh_mode == RefreshMode::AllBank) return refresh_start(refresh_epoch(t, 0) + 1, 0);
  DramClock next = ~DramClock{0};
  for (DramClock shift : shift_) next = std::min(next, refresh_start(refresh_epoch(t, shift) + 1, shift));
  return next;
}

// A row opened by an ACT stays open until the next refresh (or its PRE).
bool BankTimingState::open_at(const Bank& b, DramClock t) const { return b.open && t < b.open_until; }

// A plan is kept when all its commands lie between two refresh windows; otherwise it is
// made again after the window it ran into (the refresh has closed every row by then).
// Refresh k's window starts at k·tREFI, so one division places the first command.
// A row hit whose column command comes before the refresh that will close the row needs
// no refresh arithmetic (the common case of a stream): the loop below would return it as is.
BurstCommands BankTimingState::plan(const BurstPlace& burst, bool write, DramClock arrival) const {
  BurstCommands hit;
  if (hit_column(burst, write, arrival, hit.column)) return hit;
  const DramClock shift = shift_[index_of(burst)];
  DramClock from = outside_refresh(arrival, shift);
  // A clock by which no booked command still delays a new one and a refresh period has had
  // room for it: the latest booked time, plus every spacing, plus two refresh periods.
  const auto settled_by = [this] {
    DramClock latest = last_column_.at;
    for (const Bank& b : banks_) latest = std::max({latest, b.act_ready, b.pre_ready});
    for (const Rank& r : ranks_) latest = std::max(latest, *std::max_element(r.acts.begin(), r.acts.end()));
    for (const auto* lasts : {&rank_read_, &rank_write_, &group_read_, &group_write_})
      for (const Last& l : *lasts) latest = std::max(latest, l.at);
    const BankedDramConfig& c = cfg_;
    const DramClock spacings = DramClock{c.cl} + c.cwl + c.trcd + c.trp + c.tras + c.trc + c.trrd_s + c.trrd_l +
                               c.tccd_s + c.tccd_l + c.tfaw + c.twr + c.twtr_s + c.twtr_l + c.trtp + c.trtw +
                               burst_clocks();
    return latest + spacings + 2 * (DramClock{c.trefi} + refresh_window());
  };
  for (std::uint64_t round = 1;; ++round) {
    const DramClock before = from;
    const BurstCommands c = plan_from(burst, write, from);
    const DramClock first = c.outcome == RowOutcome::Conflict ? c.pre : c.outcome == RowOutcome::Miss ? c.act : c.column;
    const DramClock epoch = refresh_epoch(first, shift);
    const DramClock start = refresh_start(epoch, shift), reopen = start + refresh_window();
    // A hit or conflict counted on the open row; a refresh before its first command closed it.
    const bool row_closed = c.outcome != RowOutcome::Miss && bank(burst).act < start;
    if (epoch > 0 && first < reopen) {
      from = reopen;
    } else if (c.column >= refresh_start(epoch + 1, shift)) {
      from = refresh_start(refresh_epoch(c.column, shift), shift) + refresh_window();
    } else if (row_closed) {
      from = reopen;
    } else {
      return c;
    }
    // The config check (check_banked_dram) proves a plan is found soon after `from` passes
    // every booked time; each round moves it on, so this is never reached unless that is wrong.
    if (from <= before || (round % 64 == 0 && from > settled_by()))
      throw std::logic_error(fmt::format("banked DRAM: no gap between refreshes holds a burst's commands by clock {} "
                                         "(tREFI {}, refresh window {}); the config check should have refused these "
                                         "timings", from, cfg_.trefi, refresh_window()));
  }
}

BurstCommands BankTimingState::plan_from(const BurstPlace& burst, bool write, DramClock from) const {
  const Bank& b = bank(burst);
  const bool open = open_at(b, from);
  BurstCommands c;
  if (open && b.row == burst.row) {
    c.outcome = RowOutcome::Hit;
    c.column = earliest_column(burst, write, std::max(from, b.act + cfg_.trcd));
    return c;
  }
  c.outcome = open ? RowOutcome::Conflict : RowOutcome::Miss;
  DramClock act_from = std::max(from, b.act_ready);
  if (open) {
    c.pre = std::max(from, b.pre_ready);
    act_from = std::max(c.pre + cfg_.trp, b.act_ready);
  }
  c.act = earliest_act(burst, act_from);
  c.column = earliest_column(burst, write, c.act + cfg_.trcd);
  return c;
}

// tRRD_S/L from the rank's last ACT, tFAW from its fourth last; ACTs go out in order.
DramClock BankTimingState::earliest_act(const BurstPlace& burst, DramClock from) const {
  const Rank& r = ranks_[burst.rank];
  if (r.act_count == 0) return from;
  const std::uint32_t held = std::min<std::uint32_t>(r.act_count, 4);
  const DramClock last = r.acts[held - 1];
  DramClock t = std::max(from, last + (burst.bank_group == r.last_group ? cfg_.trrd_l : cfg_.trrd_s));
  if (held == 4) t = std::max(t, r.acts[0] + cfg_.tfaw);
  return t;
}



bool BankTimingState::column_floor(bool write, DramClock& floor) const {
  if (!last_column_.any || last_column_.write != write) return false;
  const DramClock other_rank = burst_clocks() + cfg_.trtw;
  floor = last_column_.at + (cfg_.ranks == 1 ? cfg_.tccd_s : std::min<DramClock>(cfg_.tccd_s, other_rank));
  return true;
}

void BankTimingState::commit(const BurstPlace& burst, bool write, const BurstCommands& c) {
  if (c.outcome == RowOutcome::Conflict) commit_pre(burst, c.pre);
  if (c.outcome != RowOutcome::Hit) commit_act(burst, c.act);
  commit_column(burst, write, c.column);
}

void BankTimingState::commit_pre(const BurstPlace& burst, DramClock at) {
  Bank& b = bank(burst);
  b.open = false;
  b.act_ready = std::max(b.act_ready, at + cfg_.trp);
}

void BankTimingState::commit_act(const BurstPlace& burst, DramClock at) {
  Rank& r = ranks_[burst.rank];
  if (r.act_count >= 4) std::rotate(r.acts.begin(), r.acts.begin() + 1, r.acts.end());
  r.acts[std::min<std::uint32_t>(r.act_count, 3)] = at;
  ++r.act_count;
  r.last_group = burst.bank_group;
  const DramClock shift = shift_[index_of(burst)];
  bank(burst) = Bank{true, burst.row, at, at + cfg_.tras, at + cfg_.trc, refresh_start(refresh_epoch(at, shift) + 1, shift)};
}


// Closed page: the bank precharges itself as soon as it may (auto-precharge).
void BankTimingState::close_after(Bank& b) {
  b.open = false;
  b.act_ready = std::max(b.act_ready, b.pre_ready + cfg_.trp);
}

}  // namespace npusim
