// seed001 ¶84 (op 1740: "to DRAM or another compute unit"): a sparse layer's output
// sub-maps stay in the FM memory units and travel over compute interconnect 920 straight
// to the units of the next sparse layer, which never loads them from DRAM.
#include <algorithm>

#include <fmt/format.h>

#include "models/sparse_cluster/SparseTensorCluster.h"

namespace npusim {

// The producer: every unit's output rectangle stays where the unit wrote it back.
void SparseTensorCluster::hold_output(ConvSchedule& run, const CompressedRowSizes& rows) {
  HeldOutput held;
  held.rows = rows;
  held.w = std::uint32_t(run.inst.outputs.at(0).shape.at(1));
  for (const ConvSchedule::Finished& f : run.finished)
    held.pieces.push_back({f.region, f.memory, f.computed});
  held_[run.inst.outputs.at(0).offset] = std::move(held);
  run.skipped += rows.total();
}

// The consumer: each sub-map's input window gathers its share of every held rectangle,
// sent from the unit that holds it to the unit whose memory unit takes the sub-map (a
// piece already there needs no network); the sub-map can start once all have arrived.
void SparseTensorCluster::take_handed_in(ConvSchedule& run) {
  const auto it = held_.find(run.inst.inputs.at(0).offset);
  if (it == held_.end() || !compute_net_)
    fail_instruction(run.inst, "handed_in: no sparse_conv_compressed with hand_off left this map in the FM memory "
                               "units (it must run just before, on this cluster, with a compute interconnect)");
  const HeldOutput held = std::move(it->second);
  held_.erase(it);
  std::vector<BorderSend> sends;
  std::vector<std::uint32_t> submap_of;
  for (std::uint32_t s = 0; s < run.plan.submaps(); ++s) {
    const UnitRegion& r = run.plan.compute_regions()[s];
    for (const HeldOutput::Piece& p : held.pieces) {
      const std::uint32_t y0 = std::max(r.row0, p.region.oy0), y1 = std::min(r.row0 + r.rows, p.region.oy1);
      const std::uint32_t x0 = std::max(r.col0, p.region.ox0), x1 = std::min(r.col0 + r.cols, p.region.ox1);
      std::uint64_t bytes = 0;
      for (std::uint32_t y = y0; y < y1 && x0 < x1; ++y)
        bytes += column_share(held.rows.value_bytes[y] + held.rows.index_bytes[y], x0, x1, held.w);
      if (bytes == 0) continue;
      sends.push_back({p.unit, run.plan.memory_unit(s), bytes, std::max(p.ready, run.start)});
      submap_of.push_back(s);
      run.skipped += bytes;
    }
  }
  const std::vector<Cycles> arrive = compute_net_->deliver(sends, true);
  run.arrival.assign(run.plan.submaps(), run.start);
  for (std::size_t i = 0; i < sends.size(); ++i)
    run.arrival[submap_of[i]] = std::max(run.arrival[submap_of[i]], arrive[i]);
}

}  // namespace npusim
