#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "apps/compiler/emit/EmitContext.h"

namespace npusim {

// A core's matrix-unit emission state: the WRAM halves weight blocks alternate between,
// the weights it holds, and its part in model-ci reductions.
struct MatrixCore {
  std::array<std::int64_t, 2> wram_reader{kNone, kNone};
  std::uint32_t wram_half = 0;   // half that receives the next block
  std::uint32_t block_half = 0;  // half holding the current block (2 = all of WRAM)
  std::int64_t weights = kNone;  // current weight load
  std::int64_t b_run = -1;       // matmul: the (image, head, block) run whose B is in WRAM
  std::int64_t acc_writer = kNone;  // model-ci: last conv or add into the current slot's sums
  std::array<std::int64_t, 2> recv_reader{kNone, kNone};      // add that last read each slot's received sums
  std::array<std::int64_t, 2> exchange_reader{kNone, kNone};  // load that last read each exchange slot
  std::vector<std::int64_t> cache_fence;  // reads of its cluster's cache slots under the previous layout
  std::size_t weight_loads = 0;  // loads of the current weight block
  // Feature-map- and row-stationary: the band whose input stays in NRAM while the weight
  // blocks stream past it (tile ~0: none yet in this layer), its first input channel (a
  // grouped conv's blocks read their own group's), in which slot, and its loads.
  struct ResidentBand {
    std::uint64_t tile = ~std::uint64_t(0);
    std::uint32_t first_ci = 0;
    std::uint32_t slot = 0;
    BandWriters loads;
  } resident;
  std::uint64_t bands_loaded = 0;  // in this layer: picks the resident band's slot
};

class MatrixState : public LoweringState {
 public:
  explicit MatrixState(std::uint32_t cores) : cores(cores) {}
  std::vector<MatrixCore> cores;
  // Model-ci exchange through DRAM: two slots per core in its cluster's memory.
  std::vector<std::uint64_t> exchange_slots;
  std::uint64_t exchange_slot_bytes = 0;
  std::uint64_t cache_slot_bytes = 0;  // size of a cache slot in the current layout
  bool exchange_in_cache = false;      // the current layer exchanges through the cluster caches
};

// MatrixWeights.cpp: a conv or fc weight block, or a matmul's block of B, into WRAM.
void emit_conv_weights(EmitContext& ctx, MatrixCore& mc, std::uint32_t core);
void emit_matmul_weights(EmitContext& ctx, MatrixCore& mc, std::uint32_t core, std::uint64_t tile);
// MatrixTiles.cpp: one band through the matrix unit, after (ws) or before (fs, rs) the
// weight block it loads when `load_weights`.
void emit_matrix_tile(EmitContext& ctx, MatrixState& state, std::uint32_t core, std::uint64_t tile,
                      bool load_weights);
// PartialSumReduction.cpp (seed002 Example 1).
// Model-ci partial sums go through the off-core caches: the output's tag stores them
// there (store `cluster`) and two slots per core of the cluster fit its cache.
bool partials_in_cache(const HardwareConfig& hw, const CompiledLayer& c);
void place_exchange_slots(EmitContext& ctx, MatrixState& state);
// Every layer: where its partial sums would go, and the cache fences when the layout changes.
void note_cache_layout(EmitContext& ctx, MatrixState& state);
// The reductions of step `step` of the layer, one per group of cores that has a band in it.
void emit_reduction(EmitContext& ctx, MatrixState& state, std::uint64_t step);

}  // namespace npusim
