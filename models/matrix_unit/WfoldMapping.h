#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/matrix_unit/ConvShape.h"
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/matrix_unit/TilePipeline.h"
#include "sim/common/Cycles.h"

namespace npusim {

// The Wfold mapping of seed000 §3-§6: every quantity derived from (matrix unit config,
// conv layer). It is the single source of these numbers for the functional datapath,
// the timing model, `npusim explain` and the compiler. Sizes named *_bytes are bytes;
// everything else counts elements, positions, rows or cycles.

// One candidate of the Pci (or Pco) choice, for reporting (§3.2).
struct SplitCandidate {
  std::uint32_t bytes = 0;          // candidate granularity
  std::uint32_t padding_bytes = 0;  // zeros needed to align the channel bytes to it
  bool allowed = false;             // false when its fold exceeds the width (W / Ws >= 1, ¶86)
};

// The choice of a channel split granularity and its fold: Pci with Ws, or Pco with Wso.
struct ChannelSplit {
  std::uint32_t channel_bytes = 0;  // the channel dimension being split, in bytes
  std::uint32_t bytes = 0;          // chosen granularity (Pci / Pco)
  std::uint32_t fold = 0;           // positions folded into one row (Ws / Wso) = M / bytes
  std::uint32_t blocks = 0;         // ceil(channel_bytes / bytes) (Bci)
  std::uint32_t padding_bytes = 0;  // blocks * bytes - channel_bytes, per position
  std::vector<SplitCandidate> candidates;
};

// Rule R1 of spec §3.2, with the tolerance from the config: among candidates whose fold
// fits in `width` positions, take the largest one whose padding exceeds the smallest
// padding by less than `tolerance` bytes (the minimum-padding candidates always qualify,
// so tolerance 0 means "least padding, larger Pci on ties"). Throws InputError when no
// candidate can hold one element or none divides M.
ChannelSplit choose_channel_split(std::uint32_t channel_bytes, std::uint32_t width,
                                  std::uint32_t element_bytes, const MatrixUnitConfig& cfg);

// The stride-sw transform of §6, fused with the padding (¶211): the padded width is made a
// multiple of sw by growing only the right padding; sw W positions move into the channel
// dimension; the kernel width is zero-extended to a multiple of sw; the W stride becomes 1.
struct StrideTransform {
  std::uint32_t sw = 1;               // original W stride
  std::uint32_t pad_left = 0;
  std::uint32_t pad_right = 0;        // after alignment (original + extra)
  std::uint32_t extra_right_pad = 0;  // zeros added at the W end of the input
  std::uint32_t folded_wi = 0;        // ceil(padded_wi / sw)
  std::uint32_t folded_kw = 0;        // ceil(kw / sw)
  std::uint32_t kernel_zero_taps = 0; // folded_kw * sw - kw, zero columns at the kernel's W end
  std::uint32_t folded_ci = 0;        // sw * ci elements: the new lowest dimension
  std::uint32_t folded_wo = 0;        // folded_wi - folded_kw + 1 (>= true wo)
  std::uint32_t true_wo = 0;          // floor((padded_wi - kw) / sw) + 1; the rest is filtered
};

// One round of output channels (the outer co loop, split by co_block, ¶146).
struct CoBlock {
  std::uint32_t first_co = 0;  // first output channel of the round
  std::uint32_t count = 0;     // real output channels in the round
  std::uint32_t aco = 0;       // count aligned to ns: ns*(m-1) < count <= ns*m -> ns*m (¶123)
  std::uint32_t nco = 0;       // co per slave = aco / ns (innermost loop count)
};

// One piece of the kernel width after splitting by kmax (¶145), in folded kw columns.
struct KwPiece {
  std::uint32_t first = 0;      // first folded kernel column
  std::uint32_t length = 0;     // columns in the piece (<= kmax)
  std::uint32_t data_rows = 0;  // first-buffer rows the piece needs: Ncu + ceil((length-1)/Ws)
};

enum class DataRowRead { Contiguous, Strided, Relay };
const char* data_row_read_name(DataRowRead mode);

// How the master reads the first storage circuit to form the data rows of one W group
// (Ws folded positions, all Bci rows) (§3.4, Fig. 7).
struct DataRowReads {
  DataRowRead mode = DataRowRead::Contiguous;
  std::uint32_t requests_per_group = 0;   // 1 (contiguous), Ws*Bci (strided), Ws (relay)
  std::uint32_t bytes_per_request = 0;    // Ws*ci', Pci, or ci' bytes
  std::uint32_t stride_bytes = 0;         // address step between requests (one position)
  std::uint32_t rows_per_group = 0;       // Bci
  std::uint32_t zero_bytes_per_position = 0;  // Pci alignment zeros inserted per position
  std::uint32_t last_block_bytes = 0;     // real bytes in the last Pci block of a position
  std::uint32_t groups_per_input_row = 0; // ceil(folded_wi / Ws)
  // The first buffer holds one Pci block at a time, so the relay saves reads only when it
  // keeps whole positions of a full first-buffer window until every bci has been formed.
  std::uint64_t relay_bytes_needed = 0;   // max window rows * Ws * ci' bytes
  bool relay_holds_window = false;
};

// Element-MAC accounting (§9, product §3). issued = useful + the four kinds of padding.
struct MacBreakdown {
  std::uint64_t useful = 0;          // formula (1)
  std::uint64_t wo_alignment = 0;    // wo padded to tiles of Ncu*Ws (incl. extra folded wo)
  std::uint64_t co_alignment = 0;    // co padded to Aco per round
  std::uint64_t stride_fold = 0;     // zero kernel taps added by the stride transform
  std::uint64_t pci_padding = 0;     // ci' padded to Bci*Pci
  std::uint64_t issued = 0;          // compute cycles * ns * Ncu * M/element_bytes
};

// The cycle estimate: busy cycles per resource, and the total from the tile pipeline
// (TilePipeline.h; README.md "Cycle estimate").
struct CycleEstimate {
  Cycles compute = 0;        // compute cycles (sum of Ncycle over tiles)
  Cycles input_fill = 0;     // broadcast-bus cycles filling first buffers
  Cycles weight_fill = 0;    // distribution-link cycles filling second buffers (per slave)
  Cycles write_back = 0;     // write-back port cycles (requests / write_back bytes per cycle)
  Cycles busiest = 0;        // a lower bound of total: compute, write_back or a bus's bytes at its rate
  Cycles total = 0;
  bool inputs_overlap = false;   // first buffer holds two windows: next fill hides under compute
};

// The write requests of one tile's results (§3.7) and the cycles they take on the write-back port.
struct TileWrites {
  std::uint64_t requests = 0;
  Cycles cycles = 0;
};

struct WfoldPlan {
  // Echo of the inputs.
  ConvShape layer;
  std::uint32_t element_bytes = 1;
  std::uint32_t ns = 0;       // slave circuits
  std::uint32_t ncu = 0;      // CUs per slave
  std::uint32_t m_bytes = 0;  // M
  std::uint32_t lanes = 0;    // elements per data row = M / element_bytes
  std::uint32_t l1 = 0, l2 = 0;

  // Stride transform and the true output size.
  StrideTransform stride;
  std::uint32_t ho = 0, wo = 0;

  // Input channels: Pci, Ws, Bci (§3.1-3.3).
  ChannelSplit pci;
  std::uint32_t pci_elems = 0;  // Pci / element_bytes
  std::uint32_t ws = 0;         // Ws = M / Pci
  std::uint32_t bci = 0;        // Nci = ceil(ci' bytes / Pci)
  DataRowReads reads;

  // Output channels (§3.5).
  std::uint32_t aco = 0;  // ns * ceil(co / ns)
  std::vector<CoBlock> co_blocks;

  // Kernel width and the loop nest (§3.6).
  std::uint32_t kmax = 0;  // L1*Ws - Ncu*Ws + 1
  std::uint32_t nkw = 0;   // min(folded kw, kmax)
  std::vector<KwPiece> kw_pieces;
  std::uint32_t nkh = 0;   // kh
  std::uint32_t nco = 0;   // co per slave in a full round (first block)
  std::uint64_t ncycle = 0;  // Nco*Nkw*Nkh*Nci of a full round (the seed's loop count)
  std::uint64_t ncycle_per_tile = 0;  // Nco * folded_kw * Nkh * Nci (all kw pieces)

  // Tiling: wo by Ncu*Ws (innermost), then ho, then co by co_block; n outermost.
  std::uint32_t wo_per_tile = 0;  // Ncu * Ws
  std::uint32_t wo_tiles = 0;
  std::uint64_t tiles = 0;        // n * ho * wo_tiles * co rounds
  std::uint32_t second_buffer_ring = 0;  // rows cycled through by weight loads
  std::uint32_t third_buffer_bytes_needed = 0;  // per slave: Nco * Ncu*Ws * 4 B accumulators

  // Reuse factors (§3.5, §3.6).
  std::uint32_t input_reuse_in_slave = 0;   // Nco = Aco/ns: one data row serves Nco co
  std::uint32_t input_reuse_across_slaves = 0;  // ns: broadcast
  std::uint32_t weight_reuse_across_cus = 0;    // Ncu
  std::uint32_t weight_reuse_in_cu = 0;         // Ws = M/Pci
  std::uint32_t weight_reuse_in_slave = 0;      // Ncu * M/Pci

  // Write-back of results (§3.7): Pco/Wso chosen like Pci on co bytes of the accumulators.
  ChannelSplit pco;
  bool requantized = false;               // the result path turns int32 into int8 before write-back
  std::uint32_t output_element_bytes = 4; // 1 when requantized
  static constexpr std::uint32_t kAccumulatorBytes = 4;  // int32 / fp32 in the third buffer

  // Traffic and cost.
  std::uint64_t data_rows = 0;            // data rows formed and broadcast
  std::uint64_t read_requests = 0;        // first storage circuit (NRAM) requests to form them
  std::uint64_t relay_rows = 0;           // data rows read out of the relay's registers (relay hits)
  std::uint64_t relay_bytes_written = 0;  // whole positions written into the relay
  std::uint64_t third_buffer_bytes = 0;   // accumulator bytes the CUs read and write back each compute cycle
  std::uint64_t broadcast_bytes = 0;      // data_rows * M
  std::uint64_t weight_rows = 0;          // extended weight rows loaded (real co only)
  std::uint64_t distribution_bytes = 0;   // weight_rows * Pci (replicated at the slave)
  std::uint64_t write_requests = 0;
  std::uint64_t output_bytes = 0;         // valid results written back
  MacBreakdown macs;
  CycleEstimate cycles;
  TilePipeline pipeline;             // per-tile times of the fast model
  bool pipeline_followed = false;    // false after map_wfold_conv alone: total is 0 and the ratios
                                     // below are upper bounds, taken over cycles.busiest
  double mac_utilization = 0;        // useful / (total cycles * peak)
  double compute_efficiency = 0;     // useful / issued
  double broadcast_utilization = 0;  // broadcast bytes / (total cycles * bus bytes per cycle)
  double distribution_utilization = 0;  // over ns parallel slave links

  // Shared placement rules, used by the datapath and the tests.
  struct SlaveSlot {
    std::uint32_t slave;
    std::uint32_t slot;
  };
  // Round-robin dealing of a round's co (¶126): co c -> slave c mod ns, slot c div ns.
  SlaveSlot slave_of(std::uint32_t co_in_round) const { return {co_in_round % ns, co_in_round / ns}; }
  std::uint32_t co_in_round(std::uint32_t slave, std::uint32_t slot) const { return slot * ns + slave; }
  // Real (not Aco padding) output channels a slave holds in a round, by that dealing.
  std::uint32_t co_on_slave(const CoBlock& round, std::uint32_t slave) const {
    return round.count / ns + (slave < round.count % ns ? 1 : 0);
  }
  // Second-buffer row receiving the k-th weight row of a tile (cyclic loading, ¶172).
  std::uint32_t second_buffer_row(std::uint64_t k) const {
    return static_cast<std::uint32_t>(k % second_buffer_ring);
  }
  // First wo of CU u inside a tile: CUs split the tile's wo in order, Ws each (¶135-¶137).
  std::uint32_t cu_first_wo(std::uint32_t u) const { return u * ws; }
  // Third-buffer entry of (slot, wo in tile): written wo first, then co (¶147, ¶180).
  std::uint32_t third_buffer_index(std::uint32_t slot, std::uint32_t wo_in_tile) const {
    return slot * wo_per_tile + wo_in_tile;
  }
};

// The mapping alone: every figure of the plan except the tile pipeline's (pipeline, cycles.total
// and the utilizations stay 0). Each figure is a closed form or a loop over co round kinds, kw
// pieces and Pci candidates, so this is fast for any layer. Throws InputError like plan_wfold_conv.
WfoldPlan map_wfold_conv(const MatrixUnitConfig& cfg, const ConvShape& layer, bool requantize = false);

// Follows the tile pipeline of a mapped plan tile by tile (TilePipeline.h): fills pipeline,
// cycles.total and the utilizations. Takes time and memory in proportion to pipeline_steps.
void follow_tile_pipeline(WfoldPlan& plan, const MatrixUnitConfig& cfg);

// Builds the plan: map_wfold_conv, then follow_tile_pipeline. `requantize` puts the int32 -> int8 requantization on the result path (int8
// layers only; needs cfg.result_requantize). Throws InputError when the config or the layer
// cannot be mapped (the reason says which quantity fails and why).
WfoldPlan plan_wfold_conv(const MatrixUnitConfig& cfg, const ConvShape& layer, bool requantize = false);

// Identifies a plan for caches: every field of the layer and its result path. A value
// key, not a string: the matrix unit looks its plan up once per instruction.
using WfoldPlanKey = std::array<std::uint32_t, 15>;
WfoldPlanKey wfold_plan_key(const ConvShape& layer, bool requantize);

// Whether the chip's result path requantizes this layer's results (int8, result_requantize on).
bool result_path_requantizes(const MatrixUnitConfig& cfg, const ConvShape& layer);

// Co rounds alike in size, for closed-form sums: the full rounds, then the last shorter one.
struct CoRoundKind {
  const CoBlock* block = nullptr;  // the first round of the kind (in plan.co_blocks)
  std::uint64_t rounds = 0;        // rounds of that size
};
std::vector<CoRoundKind> co_round_kinds(const WfoldPlan& plan);

// wo tiles alike in width: the full ones (Ncu*Ws positions), then the last narrower one.
struct WoTileKind {
  std::uint32_t wo_valid = 0;
  std::uint64_t tiles = 0;  // per image row and co round
};
std::vector<WoTileKind> wo_tile_kinds(const WfoldPlan& plan);

// The readout of one tile's result set in co round `round` (¶147-¶150): each slave reads its Nco
// slots x Ncu*Ws accumulators, padding included, reorders them cw -> wc and drops the padding.
Cycles readout_cycles(const WfoldPlan& p, const CoBlock& round, const MatrixUnitConfig& cfg);

// Tile `wo_valid` positions x `co_count` channels: its write requests and their port cycles.
TileWrites tile_writes(const WfoldPlan& p, std::uint32_t wo_valid, std::uint32_t co_count, double bytes_per_cycle);

}  // namespace npusim
