#include "models/matrix_unit/stepped/SteppedWorkOrder.h"

#include <algorithm>

namespace npusim::stepped {

WorkOrder::WorkOrder(const WfoldPlan& plan)
    : plan_(plan), segments_per_tile_(std::uint64_t(plan.kw_pieces.size()) * plan.nkh * plan.bci) {}

TilePlace WorkOrder::tile(std::uint64_t t) const {
  TilePlace place;
  std::uint32_t wo_tile = static_cast<std::uint32_t>(t % plan_.wo_tiles);
  t /= plan_.wo_tiles;
  place.ho = static_cast<std::uint32_t>(t % plan_.ho);
  t /= plan_.ho;
  place.round = static_cast<std::uint32_t>(t % plan_.co_blocks.size());
  place.image = static_cast<std::uint32_t>(t / plan_.co_blocks.size());
  place.first_wo = wo_tile * plan_.wo_per_tile;
  place.wo_valid = std::min(plan_.wo_per_tile, plan_.wo - place.first_wo);
  return place;
}

Segment WorkOrder::segment(std::uint64_t s) const {
  Segment seg;
  seg.tile = s / segments_per_tile_;
  std::uint64_t local = s % segments_per_tile_;
  seg.bci = static_cast<std::uint32_t>(local % plan_.bci);
  local /= plan_.bci;
  seg.kh = static_cast<std::uint32_t>(local % plan_.nkh);
  const KwPiece& piece = plan_.kw_pieces[local / plan_.nkh];
  seg.first_kw = piece.first;
  seg.rows = piece.data_rows;
  seg.kw_steps = piece.length;
  seg.nco = plan_.co_blocks[tile(seg.tile).round].nco;
  return seg;
}

WorkCursor::WorkCursor(const WorkOrder& order) : order_(order), segment_(order.segment(0)) {}

void WorkCursor::advance() {
  ++row_;
  if (!last_of_segment()) {
    ++index_;
    return;
  }
  index_ = 0;
  if (++segment_index_ < order_.segments()) segment_ = order_.segment(segment_index_);
}

}  // namespace npusim::stepped
