#include "models/matrix_unit/stepped/SteppedMasterCircuit.h"

#include <cstring>

namespace npusim::stepped {

SteppedMasterCircuit::SteppedMasterCircuit(const WorkOrder& order, const SteppedConvData& data,
                                           const std::vector<SteppedTileTimes>& tiles,
                                           std::uint32_t result_sets)
    : order_(order),
      plan_(order.plan()),
      ifmap_(static_cast<const std::uint8_t*>(data.ifmap)),
      weights_(static_cast<const std::uint8_t*>(data.weights)),
      tiles_(tiles),
      serial_tiles_(result_sets == 1) {}

bool SteppedMasterCircuit::may_start(std::uint64_t tile, Cycles t) const {
  return !serial_tiles_ || tile == 0 || tiles_[tile - 1].write_end <= t;
}

void SteppedMasterCircuit::copy_folded(const std::uint8_t* row, std::uint32_t width, std::uint32_t pad,
                                       std::uint64_t f, std::uint32_t channel, std::uint8_t* dst) const {
  const ConvShape& s = plan_.layer;
  const std::uint32_t bytes = s.element_bytes;
  std::uint32_t q = channel / s.ci;  // which of the sw original positions folded into f
  std::int64_t w = std::int64_t(f * s.sw + q) - pad;
  if (row != nullptr && q < s.sw && w >= 0 && w < std::int64_t(width))
    std::memcpy(dst, row + (std::size_t(w) * s.ci + channel % s.ci) * bytes, bytes);
  else
    std::memset(dst, 0, bytes);
}

void SteppedMasterCircuit::form_window(const Segment& segment, std::uint8_t* dst) const {
  const ConvShape& s = plan_.layer;
  TilePlace tile = order_.tile(segment.tile);
  std::int64_t h = std::int64_t(tile.ho) * s.sh + segment.kh - s.pad_top;
  const std::uint8_t* row = nullptr;
  if (h >= 0 && h < std::int64_t(s.hi))
    row = ifmap_ + (std::size_t(tile.image) * s.hi + std::size_t(h)) * s.wi * s.ci * s.element_bytes;
  std::uint64_t first = std::uint64_t(tile.first_wo) + segment.first_kw;
  for (std::uint32_t j = 0; j < segment.rows * plan_.ws; ++j)
    for (std::uint32_t lane = 0; lane < plan_.pci_elems; ++lane, dst += s.element_bytes)
      copy_folded(row, s.wi, s.pad_left, first + j, segment.bci * plan_.pci_elems + lane, dst);
}

void SteppedMasterCircuit::form_weight_slice(const Segment& segment, std::uint32_t kw_step,
                                             std::uint32_t slave, std::uint32_t co_slot,
                                             std::uint8_t* dst) const {
  const ConvShape& s = plan_.layer;
  const CoBlock& round = plan_.co_blocks[order_.tile(segment.tile).round];
  std::uint32_t co_in_round = plan_.co_in_round(slave, co_slot);
  const std::uint8_t* row = nullptr;  // Aco padding slot: a zero row
  if (co_in_round < round.count)
    row = weights_ + ((std::size_t(round.first_co) + co_in_round) * s.kh + segment.kh) * s.kw * s.ci * s.element_bytes;
  for (std::uint32_t lane = 0; lane < plan_.pci_elems; ++lane, dst += s.element_bytes)
    copy_folded(row, s.kw, 0, segment.first_kw + kw_step, segment.bci * plan_.pci_elems + lane, dst);
}

}  // namespace npusim::stepped
