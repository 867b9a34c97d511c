#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/stepped/CycleSteppedMatrixUnit.h"
#include "models/matrix_unit/stepped/SteppedWorkOrder.h"

namespace npusim::stepped {

// The master circuit's side of the instruction: when a tile's transfers may begin
// (rule 9), and, with tensors, the bytes it sends: data rows formed from the unpadded
// NHWC ifmap with the padding, the stride-sw fold (§6.2) and the Pci alignment applied on
// the way (¶100), and the Pci weight slices each slave's link carries (¶129).
class SteppedMasterCircuit {
 public:
  SteppedMasterCircuit(const WorkOrder& order, const SteppedConvData& data,
                       const std::vector<SteppedTileTimes>& tiles, std::uint32_t result_sets);

  bool has_data() const { return ifmap_ != nullptr; }
  // With one result set a tile's first window and weight rows wait for the previous tile's
  // write-back to end; with more, the buses run ahead freely.
  bool may_start(std::uint64_t tile, Cycles t) const;
  // The segment's window: rows x Ws folded positions of Pci elements of block bci.
  void form_window(const Segment& segment, std::uint8_t* dst) const;
  // The Pci slice of (co slot on `slave`, kh, kw step, bci); zeros for an Aco padding slot.
  void form_weight_slice(const Segment& segment, std::uint32_t kw_step, std::uint32_t slave,
                         std::uint32_t co_slot, std::uint8_t* dst) const;

 private:
  // Element `channel` of folded position `f` of an unpadded row of `width` positions that
  // `pad` zero positions precede; `row` null is a padding row.
  void copy_folded(const std::uint8_t* row, std::uint32_t width, std::uint32_t pad, std::uint64_t f,
                   std::uint32_t channel, std::uint8_t* dst) const;

  const WorkOrder& order_;
  const WfoldPlan& plan_;
  const std::uint8_t* ifmap_;
  const std::uint8_t* weights_;
  const std::vector<SteppedTileTimes>& tiles_;
  bool serial_tiles_;
};

}  // namespace npusim::stepped
