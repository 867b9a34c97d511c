// The Wfold unit's weight blocks: how many output channels' weights go to WRAM at once.
#include <algorithm>

#include <fmt/format.h>

#include "apps/compiler/lower_matrix/MatrixLowering.h"
#include "apps/compiler/tiling/LoadOrder.h"
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

// Every co block makes a full pass over the input's bands. Half-WRAM blocks let the next
// block load while this one computes; whole-WRAM blocks halve the passes. The latter is
// chosen when the input re-reads it saves exceed the layer's weights (a big fc or matmul
// over many positions, where A dwarfs the one weight load per block that no longer overlaps).
bool whole_wram_blocks_move_less(const Workload& w, const Layer& l, const LayerTiling& t, std::uint64_t per_co,
                                 std::uint32_t half_block, std::uint32_t whole_block) {
  const std::uint64_t input = std::uint64_t(w.batch) * l.in.h * l.in.w * t.ci * (l.kind == LayerKind::Matmul ? l.heads : 1);
  const std::uint64_t passes_half = (t.co + half_block - 1) / half_block, passes_whole = (t.co + whole_block - 1) / whole_block;
  const std::uint64_t weights = std::uint64_t(t.co) * per_co * (l.kind == LayerKind::Matmul ? l.heads : 1);
  return input * (passes_half - passes_whole) > weights;
}

}  // namespace

void choose_co_block(const Workload& w, const Layer& l, LayerTiling& t, const CoreConfig& core) {
  const std::string& file = w.file;
  const std::uint64_t wram = core.wram.capacity_bytes;
  const std::uint64_t per_co = std::uint64_t(t.kernel_h) * t.kernel_w * t.ci;
  const std::uint32_t co = t.co, ns = core.block<MatrixUnitConfig>(MatrixUnitConfig::kSection).slaves;
  if (per_co > wram)
    throw InputError(file, layer_place(l),
                     fmt::format("one output channel needs {} bytes of weights but WRAM holds {} bytes", per_co, wram));
  std::uint64_t fit_half = wram / 2 / per_co, fit_all = wram / per_co;
  if (co <= fit_half) {
    t.co_block = co;
    t.weights_in_half = true;
  } else if (co <= fit_all) {
    t.co_block = co;
  } else if (fit_half > 0) {
    const auto aligned_block = [ns](std::uint64_t fit) { return std::uint32_t(fit >= ns ? fit / ns * ns : fit); };
    t.co_block = aligned_block(fit_half);
    t.weights_in_half = true;
    // With the input resident (fs, rs) the weights are read once per band whatever the
    // block size, so halves, which overlap the next block's load, are always kept.
    if (!input_resident(t) && whole_wram_blocks_move_less(w, l, t, per_co, t.co_block, aligned_block(fit_all))) {
      t.co_block = aligned_block(fit_all);
      t.weights_in_half = false;
    }
  } else {
    t.co_block = std::uint32_t(fit_all);
  }
  if (l.groups > 1) {  // a block must lie in one group: the largest divisor of a group's outputs that fits
    const std::uint32_t group_co = l.out.c / l.groups;
    std::uint32_t block = std::min(t.co_block, group_co);
    while (group_co % block != 0) --block;
    t.co_block = block;
  }
  t.co_blocks = (co + t.co_block - 1) / t.co_block;
  t.weight_block_bytes = t.co_block * per_co;
}

}  // namespace npusim
