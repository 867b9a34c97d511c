#pragma once
#include <cstdint>
#include <limits>

#include "models/matrix_unit/WfoldMapping.h"
#include "sim/common/Cycles.h"

namespace npusim::stepped {

// A time not reached yet (a slot still held, a write-back not ended).
constexpr Cycles kNever = std::numeric_limits<Cycles>::max();

// Where a tile sits: image, co round, output row and the valid outputs of its wo tile.
struct TilePlace {
  std::uint32_t image = 0, round = 0, ho = 0;
  std::uint32_t first_wo = 0, wo_valid = 0;
};

// One segment: a first-buffer window (its kw piece's data rows of one kh and bci) and the
// compute that uses it, kw_steps x nco compute cycles (docs/fidelity.md, "Work order").
struct Segment {
  std::uint64_t tile = 0;
  std::uint32_t first_kw = 0;   // folded kernel column where its kw piece starts
  std::uint32_t kh = 0, bci = 0;
  std::uint32_t rows = 0;       // data rows of M bytes
  std::uint32_t kw_steps = 0;
  std::uint32_t nco = 0;        // co slots of its round
};

// The instruction's work order: tiles n -> co round -> ho -> wo tile, and inside a tile
// segments kw piece -> kh -> bci, all outermost first. Computed by index, never listed.
class WorkOrder {
 public:
  explicit WorkOrder(const WfoldPlan& plan);
  const WfoldPlan& plan() const { return plan_; }
  std::uint64_t tiles() const { return plan_.tiles; }
  std::uint64_t segments() const { return plan_.tiles * segments_per_tile_; }
  TilePlace tile(std::uint64_t t) const;
  Segment segment(std::uint64_t s) const;
  std::uint64_t first_segment(std::uint64_t tile) const { return tile * segments_per_tile_; }

 private:
  const WfoldPlan& plan_;
  std::uint64_t segments_per_tile_;
};

// Walks the weight rows of the instruction in work order, which is also the order of the
// compute cycles: (segment, kw step, co slot). row() numbers them instruction-wide.
class WorkCursor {
 public:
  explicit WorkCursor(const WorkOrder& order);
  bool done() const { return segment_index_ == order_.segments(); }
  const Segment& segment() const { return segment_; }
  std::uint64_t segment_index() const { return segment_index_; }
  std::uint32_t kw_step() const { return index_ / segment_.nco; }
  std::uint32_t co_slot() const { return index_ % segment_.nco; }
  std::uint64_t row() const { return row_; }
  bool first_of_tile() const { return index_ == 0 && segment_index_ == order_.first_segment(segment_.tile); }
  bool last_of_segment() const { return index_ + 1 == segment_.kw_steps * segment_.nco; }
  bool last_of_tile() const {
    return last_of_segment() && segment_index_ + 1 == order_.first_segment(segment_.tile + 1);
  }
  void advance();

 private:
  const WorkOrder& order_;
  std::uint64_t segment_index_ = 0;
  Segment segment_;
  std::uint32_t index_ = 0;  // kw step * nco + co slot, inside the segment
  std::uint64_t row_ = 0;
};

}  // namespace npusim::stepped
