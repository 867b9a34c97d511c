#pragma once
#include <any>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/matrix_unit/ConvShape.h"
#include "apps/frontend/workload/Workload.h"
#include "apps/tags/SplitStrategy.h"
#include "sim/config/HardwareConfig.h"

namespace npusim {

// A layer split across cores in a model or hybrid mode (seed002 ¶55): the cores that take
// part, each one's share of the channels it splits (co for the co modes, ci for the ci
// modes), [lo, hi), and how many consecutive cores form a group that shares every band
// of its run (all of them in a model mode, one cluster's in a hybrid mode).
struct ChannelShares {
  ParallelMode mode = ParallelMode::Data;
  std::vector<std::uint32_t> cores;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  std::uint32_t group = 0;
};

// Rows of the input a band of output rows reads, and the zero padding at its edges.
struct BandWindow {
  std::uint32_t in_row0 = 0, in_rows = 0;
  std::uint32_t pad_top = 0, pad_bottom = 0;
};

// How one layer is cut to fit a core's NRAM and WRAM (docs/workload-format.md,
// "How layers are compiled"): bands of output rows per image, output channels in
// blocks when the weights do not fit WRAM, and two buffers where both fit.
struct LayerTiling {
  std::uint32_t rows = 1;          // output rows per band (the last band may be shorter)
  std::uint32_t bands = 1;         // per image
  std::uint32_t buffers = 1;       // NRAM slots: 2 = next band loads while this one computes
  std::uint32_t co_block = 0;      // output channels per weight block (weighted layers)
  std::uint32_t co_blocks = 1;
  // Matmul: every (head, co block) of an image is a run of `bands` tiles with its own
  // weights (the head's block of B), so an image has heads x co_blocks runs; 1 otherwise.
  std::uint32_t runs_per_image = 1;
  bool weights_in_half = false;    // a block fits half of WRAM: blocks alternate halves
  std::uint32_t kernel_h = 1, kernel_w = 1;  // after dilation (zero taps between the real ones)
  // NRAM layout: fixed region (depthwise weights) then `buffers` slots.
  std::uint64_t fixed_bytes = 0;
  std::uint64_t in_bytes = 0;      // one input stream of a full band (add has two; concat: all its inputs')
  std::uint64_t acc_bytes = 0;     // int32 accumulators (0 when the op writes int8 directly)
  std::uint64_t out_bytes = 0;
  std::uint64_t recv_bytes = 0;    // model-ci: a neighbour's int32 partial sums, received for the reduction
  std::uint64_t slot_bytes = 0;
  std::uint64_t weight_block_bytes = 0;  // WRAM bytes of one full co block
  // Placement by cost only: the layer's one input would arrive compressed if the layer ran
  // on the engine its producer ran on (Lowering::chains_to), so that prediction pays no
  // compress for it. Emission decides again, from every layer's placement (SparseChaining).
  bool input_chained = false;
  // Where it runs: the engine that computes it, and the cores of one core kind
  // that have every engine the layer's instructions use.
  std::string engine;
  std::uint32_t core_kind = 0;        // index into HardwareConfig::kinds()
  std::vector<std::uint32_t> cores;   // global core indices, ascending
  // How the layer's cores share it. Data: each takes its run of bands with every
  // channel. Model modes: each takes every band with its share of co or ci (`shares`,
  // one per core, in `cores` order); `ci`, `co` are the largest share, which sizes the
  // buffers (the whole layer's channels in data mode).
  ParallelMode split = ParallelMode::Data;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> shares;
  std::uint32_t ci = 0, co = 0;
  // Consecutive cores (in `cores`) that take the same bands: 1 in data mode (each core its
  // own run), every core in a model mode, a cluster's cores in a hybrid mode, where the
  // groups take runs of bands as data mode's cores do (EmitContext::start_layer).
  std::uint32_t group = 1;
  std::size_t groups() const { return group == 0 ? 1 : (cores.size() + group - 1) / group; }
  // The computing engine requantizes on its result path (the matrix unit's
  // /core/matrix/result_requantize): int8 straight to the output buffer, no int32
  // accumulators in NRAM.
  bool requantize_on_result_path = false;
  // What lowerings worked out for this layer, by lowering name: the engine's own mapping
  // (set by plan(), e.g. the Wfold plan of a band) or a note probe() leaves on every layer
  // (the sparse verdict). Only the lowering of that name reads its entry.
  std::map<std::string, std::any> engine_plans;
  template <class Plan>
  const Plan* engine_plan(const std::string& lowering) const {
    const auto it = engine_plans.find(lowering);
    return it == engine_plans.end() ? nullptr : std::any_cast<Plan>(&it->second);
  }

  const CoreConfig& kind(const HardwareConfig& hw) const;
  BandWindow band(const Layer& l, std::uint32_t row0, std::uint32_t rows) const;
  // Tile `tile` (image-major bands): its image, output rows and input window.
  struct BandTile {
    std::uint32_t image, row0, rows;
    BandWindow window;
  };
  BandTile band_tile(const Layer& l, std::uint64_t tile) const;
  std::uint64_t tiles(std::uint32_t batch) const { return std::uint64_t(batch) * runs_per_image * bands; }
  // Matmul tile `tile`: its head and the columns [first, first + count) of that head's output.
  struct MatmulBlock {
    std::uint32_t head, first, count;
  };
  MatmulBlock matmul_block(const Layer& l, std::uint64_t tile) const;
  std::uint32_t block_first_co(std::uint32_t b) const { return b * co_block; }
  std::uint32_t block_count(const Layer& l, std::uint32_t b) const;
  // Output channels [first, first + count) of block `b` on the core at `index` in `cores`
  // (count 0 when its share has fewer blocks).
  std::pair<std::uint32_t, std::uint32_t> core_block(const Layer& l, std::size_t index, std::uint32_t b) const;
  // Input channels [first, first + count) the core at `index` reads.
  std::pair<std::uint32_t, std::uint32_t> core_channels_in(const Layer& l, std::size_t index) const;
  // Input rows some output window reads: a stride larger than the kernel skips the rest.
  std::uint32_t input_rows_read(const Layer& l) const;
};

// The shared part of tiling a layer; each engine's lowering (emit/Lowering.h) places and
// plans its layers with these (planning/LayerPlacement.h: tile_layer).

// Where an error about the layer points: "line N (name)" or "layer 'name'".
std::string layer_place(const Layer& l);
// What every tiling starts from: the kernel after dilation and the whole layer's ci and co.
LayerTiling start_tiling(const Layer& l);
// Puts the layer on `compute` and on the cores of the kind that has every engine in
// `needed` (the most specialised, then the most numerous, then the earlier kind);
// false when no kind has them all.
bool place_on(const std::string& compute, const std::vector<std::string>& needed, LayerTiling& t,
              const HardwareConfig& hw);
// A model mode: the cores that take part and the largest share, which sizes the buffers.
void apply_shares(const Layer& l, LayerTiling& t, const ChannelShares& s);
// Bands of output rows and NRAM slots for a placed layer (its co blocks chosen first):
// enough bands to give its cores work, the largest that fit with two buffers, else one.
// Throws InputError naming the layer and the capacity when even one output row of one
// channel block cannot fit.
void tile_bands(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t);

// The Wfold conv shape of a band of a weighted layer (fc is a 1x1 conv over its positions).
ConvShape band_conv_shape(const Layer& l, const LayerTiling& t, const BandWindow& b, std::uint32_t co);

// What a concat or gather_channels moves: runs of channels of one input (`in_c` channels),
// [from, from + count), each loaded into a band region of its own and stored into the
// output's channels [to, to + count). A concat moves each input whole, in `inputs` order;
// gather_channels each run of consecutive channel_ids.
struct ChannelMove {
  std::size_t input = 0;
  std::uint32_t in_c = 0, from = 0, count = 0, to = 0;
};
std::vector<ChannelMove> channel_moves(const Layer& l);

// Where move `move` of a concat or gather_channels starts in a band slot of `rows` rows;
// move `channel_moves(l).size()` gives the slot's size.
std::uint64_t concat_region_offset(const Layer& l, std::uint32_t rows, std::size_t move);

// Fc and matmul are 1x1 over positions stored one after another: the matrix unit takes a
// band's positions as one row, so they fill the compute units' width (Ncu x Ws) instead of
// making one tile per position. The bytes are the same either way.
bool positions_in_one_row(const Layer& l);
// The [1, h, w, c] shape of a band of `rows` rows of a `width` x `channels` map as the
// matrix unit's instructions name it.
std::vector<std::uint64_t> matrix_band_shape(const Layer& l, std::uint32_t rows, std::uint32_t width,
                                             std::uint32_t channels);

}  // namespace npusim
