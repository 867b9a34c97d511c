// The distribution bus of seed000 §3.3: each slave's private link carries its share of a
// tile's weight rows; links that saw the same bookings share one calendar.
#include <algorithm>

#include "models/matrix_unit/MatrixUnit.h"

namespace npusim {

// A slave's share of a round's weight rows follows its real co (round-robin
// dealing), so when the round's co is not a multiple of ns some links carry more.
// The links are private and equally wide, so a link that has seen the same bookings as
// another since both were idle has the same calendar: it mirrors that one (leader_) and
// only counts its traffic, until a booking of a different length parts them.
Cycles MatrixUnit::distribute_weights(const WfoldPlan& plan, std::uint64_t round, std::uint64_t bytes, Cycles now,
                                      Cycles earliest) {
  Cycles arrived = earliest;
  if (plan.co_blocks.empty() || bytes == 0) return arrived;
  const std::size_t n = slaves_.size();
  const SlaveShares& split = slave_shares(plan, round, bytes);
  const std::vector<std::uint64_t>& shares = split.bytes;
  const std::vector<Cycles>& cycles = split.cycles;
  // Part from the leader before it books: the follower takes its calendar as it is now.
  for (std::size_t s = 0; s < n; ++s) {
    const std::size_t l = leader_[s];
    if (l != s && cycles[s] != cycles[l]) {
      slaves_[s]->link().copy_calendar(slaves_[l]->link());
      leader_[s] = s;
    }
  }
  for (std::size_t s = 0; s < n; ++s) {
    if (shares[s] == 0) continue;
    BandwidthPort& link = slaves_[s]->link();
    if (leader_[s] == s) {
      arrived = std::max(arrived, link.reserve_cycles(now, earliest, shares[s], cycles[s], false));
    } else {
      link.add_mirrored(shares[s], cycles[s], false);  // its leader's booking ended no earlier
    }
  }
  return arrived;
}

// Each slave's bytes and link cycles of a tile's weights. Tiles of one instruction repeat
// the same few (round, bytes), so the splits are kept until the next instruction, which
// refills their vectors rather than allocating new ones.
const MatrixUnit::SlaveShares& MatrixUnit::slave_shares(const WfoldPlan& plan, std::uint64_t round,
                                                        std::uint64_t bytes) {
  for (std::size_t i = 0; i < live_splits_; ++i)
    if (splits_[i].round == round && splits_[i].total == bytes) return splits_[i];
  const CoBlock& block = plan.co_blocks[round];
  SlaveShares& split = next_split();
  split.round = round;
  split.total = bytes;
  split.bytes.clear();
  split.cycles.clear();
  std::uint64_t before = 0;  // co of the round on the slaves so far
  for (const auto& slave : slaves_) {
    const std::uint64_t co = plan.co_on_slave(block, slave->index());
    split.bytes.push_back(bytes * (before + co) / block.count - bytes * before / block.count);
    split.cycles.push_back(slave->link().transfer_cycles(split.bytes.back()));
    before += co;
  }
  return split;
}

// The entry for a new split: a free one, or past kKeptSplits the oldest, moved last.
MatrixUnit::SlaveShares& MatrixUnit::next_split() {
  if (live_splits_ == kKeptSplits) {
    std::rotate(splits_.begin(), splits_.begin() + 1, splits_.begin() + live_splits_);
    return splits_[live_splits_ - 1];
  }
  if (live_splits_ == splits_.size()) splits_.emplace_back();
  return splits_[live_splits_++];
}

// Links idle from `now` answer every later booking alike: all follow the first again.
void MatrixUnit::regroup_links(Cycles now) {
  const bool idle = std::all_of(slaves_.begin(), slaves_.end(), [now](const auto& s) { return s->link().idle_from(now); });
  if (idle) std::fill(leader_.begin(), leader_.end(), 0);
}

void MatrixUnit::account_slaves(const WfoldPlan& plan, Cycles cycles) {
  const std::uint64_t co = std::max<std::uint32_t>(1, plan.layer.co);
  for (const auto& slave : slaves_) {
    std::uint64_t mine = 0;
    for (const CoBlock& block : plan.co_blocks) mine += plan.co_on_slave(block, slave->index());
    slave->account(mine, plan.macs.useful * mine / co, cycles);
  }
}

}  // namespace npusim
