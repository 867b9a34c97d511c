#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "models/banked_dram/BurstMapper.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

using DramClock = std::uint64_t;  // clocks of the DRAM's own command clock
constexpr DramClock kNever = ~DramClock{0};  // a time no event reaches

enum class RowOutcome { Hit, Miss, Conflict };

// The times one burst's commands go out: PRE (conflicts), ACT (misses and conflicts) and
// the column command (READ or WRITE).
struct BurstCommands {
  RowOutcome outcome = RowOutcome::Hit;
  DramClock pre = 0, act = 0, column = 0;
};

// What the controller knows of one channel's banks, ranks and data bus: for each bank its
// open row and the earliest next PRE, ACT and column command; for each rank its last four
// ACTs (tRRD, tFAW); for the bus the last READ and WRITE of each rank and bank group (tCCD,
// tWTR, read-to-write) and the channel's last column command (rank switches).
// Commands are placed from these times as the controller issues them, never by ticking:
// an idle bank costs nothing. All-bank refreshes are a fixed calendar: refresh k
// (k >= 1) precharges every bank at k·tREFI, refreshes at k·tREFI + tRP and lets the first
// ACT in tRFC later; no command falls inside, and it closes every open row.
class BankTimingState {
 public:
  explicit BankTimingState(const BankedDramConfig& cfg);

  // When `burst` (read or write) arriving at `arrival` would go out, without booking it.
  BurstCommands plan(const BurstPlace& burst, bool write, DramClock arrival) const;
  // The row hit's column command, when the burst hits the open row before the refresh that
  // closes it: what plan() gives then (the common case of a stream, kept inline).
  bool hit_column(const BurstPlace& burst, bool write, DramClock arrival, DramClock& column) const {
    const Bank& b = bank(burst);
    if (!b.open || b.row != burst.row) return false;
    column = earliest_column(burst, write, std::max(arrival, b.act + cfg_.trcd));
    return column < b.open_until;
  }
  // Books the planned commands: bank, rank and bus state move on.
  void commit(const BurstPlace& burst, bool write, const BurstCommands& c);
  // The same one command at a time (the controller interleaves the commands of many bursts).
  void commit_pre(const BurstPlace& burst, DramClock at);
  void commit_act(const BurstPlace& burst, DramClock at);
  void commit_column(const BurstPlace& burst, bool write, DramClock at);
  // The row the bank holds open (as last booked, refreshes aside), if any.
  bool row_open(std::size_t bank_index, std::uint64_t& row) const {
    row = banks_[bank_index].row;
    return banks_[bank_index].open;
  }
  // The clock from which the bank's open row counts as closed (the next refresh after its ACT).
  DramClock open_until(std::size_t bank_index) const { return banks_[bank_index].open_until; }
  // When the channel's last column command was of direction `write`: the earliest clock any
  // later column command of that direction can go (tCCD_S in its rank, a burst plus the
  // read-to-write gap in another: earliest_column and rank_switch_ready never go below).
  bool column_floor(bool write, DramClock& floor) const;
  std::size_t bank_count() const { return banks_.size(); }
  std::size_t index_of(const BurstPlace& b) const {
    return (std::size_t{b.rank} * cfg_.bank_groups + b.bank_group) * cfg_.banks_per_group + b.bank;
  }

  // First clock of data after the column command, and clocks of one burst on the bus.
  DramClock data_delay(bool write) const { return write ? cfg_.cwl : cfg_.cl; }
  DramClock burst_clocks() const { return cfg_.burst_clocks(); }
  // Refreshes whose window starts before `end`, and the clocks each blocks the rank.
  // Refreshes (all-bank: of the rank; per-bank: of single banks) whose window starts at or before `end`.
  std::uint64_t refreshes_before(DramClock end) const;
  // The first refresh start (of any bank) after `t`.
  DramClock next_refresh_after(DramClock t) const;
  // Clocks one refresh blocks its banks: PRE, then tRFC (all-bank) or tRFCpb (per-bank).
  DramClock refresh_window() const {
    return DramClock{cfg_.trp} + (cfg_.refresh_mode == RefreshMode::PerBank ? cfg_.trfc_pb : cfg_.trfc);
  }
  const BankedDramConfig& config() const { return cfg_; }

 private:
  struct Bank {
    bool open = false;
    std::uint64_t row = 0;
    DramClock act = 0;        // last ACT
    DramClock pre_ready = 0;  // earliest PRE (tRAS, tRTP, tWR)
    DramClock act_ready = 0;  // earliest ACT (tRP, tRC)
    DramClock open_until = 0; // the next refresh after the ACT closes the row
  };
  struct Rank {
    std::array<DramClock, 4> acts{};  // last four ACTs, oldest first once full
    std::uint32_t act_count = 0;
    std::uint32_t last_group = 0;
  };
  struct Column {
    bool any = false, write = false;
    std::uint32_t rank = 0, group = 0;
    DramClock at = 0;
  };
  struct Last {  // the latest READ or WRITE of a rank or bank group
    bool any = false;
    DramClock at = 0;
    DramClock plus(DramClock gap) const { return any ? at + gap : 0; }
  };

  Bank& bank(const BurstPlace& b) { return banks_[index_of(b)]; }
  const Bank& bank(const BurstPlace& b) const { return banks_[index_of(b)]; }
  bool open_at(const Bank& b, DramClock t) const;
  BurstCommands plan_from(const BurstPlace& burst, bool write, DramClock from) const;
  DramClock earliest_act(const BurstPlace& burst, DramClock from) const;
  DramClock earliest_column(const BurstPlace& burst, bool write, DramClock from) const;
  // Refreshes of a bank whose calendar is `shift` clocks ahead of the rank's (0 all-bank; per
  // bank, its turn): refresh e >= 1 starts at e·tREFI − shift.
  DramClock refresh_epoch(DramClock t, DramClock shift) const { return (t + shift) / cfg_.trefi; }
  DramClock refresh_start(DramClock epoch, DramClock shift) const { return epoch == 0 ? 0 : epoch * cfg_.trefi - shift; }
  // The first clock at or after `t` outside the bank's refresh windows.
  DramClock outside_refresh(DramClock t, DramClock shift) const;
  void close_after(Bank& b);

  BankedDramConfig cfg_;
  std::vector<Bank> banks_;
  std::vector<DramClock> shift_;  // per bank, its refresh calendar's lead (all 0 for all-bank refresh)
  std::vector<Rank> ranks_;
  Column last_column_;                    // of the channel (a rank switch counts from it)
  std::vector<Last> rank_read_, rank_write_;    // per rank: tCCD_S, tWTR_S, read-to-write
  std::vector<Last> group_read_, group_write_;  // per rank and bank group: tCCD_L, tWTR_L
  DramClock rank_switch_ready(const BurstPlace& burst, bool write) const;
};

// Inline: a stream of row hits calls these for every burst.
// A column command is spaced from the last READ and WRITE of its rank (tCCD_S, tWTR_S after
// the write data, the read data off the bus before a WRITE) and of its bank group (tCCD_L,
// tWTR_L), and from the channel's last column command when that was in another rank.
inline DramClock BankTimingState::earliest_column(const BurstPlace& burst, bool write, DramClock from) const {
  const std::size_t group = std::size_t{burst.rank} * cfg_.bank_groups + burst.bank_group;
  const DramClock burst_len = burst_clocks(), write_data = cfg_.cwl + burst_len;
  DramClock t = std::max(from, rank_switch_ready(burst, write));
  if (write) {
    const DramClock read_data = DramClock{cfg_.cl} + burst_len + cfg_.trtw;
    const DramClock after_read = std::max(burst_len, read_data > cfg_.cwl ? read_data - cfg_.cwl : 0);
    t = std::max({t, rank_write_[burst.rank].plus(cfg_.tccd_s), group_write_[group].plus(cfg_.tccd_l),
                  rank_read_[burst.rank].plus(after_read)});
  } else {
    t = std::max({t, rank_read_[burst.rank].plus(cfg_.tccd_s), group_read_[group].plus(cfg_.tccd_l),
                  rank_write_[burst.rank].plus(write_data + cfg_.twtr_s), group_write_[group].plus(write_data + cfg_.twtr_l)});
  }
  return t;
}

// The data bus changes hands between ranks: a burst plus the read-to-write gap.
inline DramClock BankTimingState::rank_switch_ready(const BurstPlace& burst, bool write) const {
  const Column& p = last_column_;
  if (!p.any || p.rank == burst.rank) return 0;
  const DramClock burst_len = burst_clocks();
  DramClock gap = burst_len + cfg_.trtw;
  if (p.write && !write) {
    const DramClock after = cfg_.cwl + burst_len + cfg_.trtw;
    gap = after > cfg_.cl + burst_len ? after - cfg_.cl : burst_len;
  } else if (!p.write && write) {
    const DramClock after = DramClock{cfg_.cl} + burst_len + cfg_.trtw;
    gap = std::max(burst_len, after > cfg_.cwl ? after - cfg_.cwl : 0);
  }
  return p.at + gap;
}

inline void BankTimingState::commit_column(const BurstPlace& burst, bool write, DramClock at) {
  Bank& b = bank(burst);
  const DramClock done = write ? at + cfg_.cwl + burst_clocks() + cfg_.twr : at + cfg_.trtp;
  b.pre_ready = std::max(b.pre_ready, done);
  last_column_ = {true, write, burst.rank, burst.bank_group, at};
  const std::size_t group = std::size_t{burst.rank} * cfg_.bank_groups + burst.bank_group;
  (write ? rank_write_ : rank_read_)[burst.rank] = {true, at};
  (write ? group_write_ : group_read_)[group] = {true, at};
  if (cfg_.page_policy == PagePolicy::Closed) close_after(b);
}

}  // namespace npusim
