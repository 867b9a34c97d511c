// Conv, fc and matmul bands through the matrix unit: loads, conv, requant (unless the
// matrix unit requantizes on its result path), store; model-ci sums go to the reduction.
#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_matrix/MatrixLowering.h"
#include "apps/compiler/lower_matrix/MatrixState.h"
#include "apps/compiler/lower_vector/VectorOps.h"
#include "apps/compiler/tiling/LoadOrder.h"

namespace npusim {
namespace {

// The channels one band of a core multiplies: output [first_co, first_co + co) from
// input [first_ci, first_ci + ci).
struct BandChannels {
  std::uint32_t first_co = 0, co = 0, first_ci = 0, ci = 0;
};

BandChannels band_channels(const EmitContext& ctx, std::size_t share, std::uint64_t tile) {
  const Layer& l = ctx.layer().layer;
  const LayerTiling& t = ctx.layer().tiling;
  BandChannels ch;
  std::tie(ch.first_co, ch.co) = t.core_block(l, share, ctx.block());
  std::tie(ch.first_ci, ch.ci) = t.core_channels_in(l, share);
  if (l.groups > 1) {  // a block lies in one group (choose_co_block): that group's inputs
    ch.first_ci = ch.first_co / (l.out.c / l.groups) * t.ci;
    ch.ci = t.ci;
  }
  if (l.kind == LayerKind::Matmul) {  // A's head segment times the head's block of B, into the head's output segment
    const auto block = t.matmul_block(l, tile);
    ch.first_ci = block.head * t.ci;
    ch.ci = t.ci;
    ch.first_co = block.head * t.co + block.first;
    ch.co = block.count;
  }
  return ch;
}

// The conv over the band window `band` of the inputs at `in_at` and the weight block in WRAM.
Instruction conv_op(const EmitContext& ctx, const MatrixCore& mc, std::uint32_t core, const BandWindow& band,
                    std::uint64_t in_at, std::size_t inputs, const BandChannels& ch) {
  const Layer& l = ctx.layer().layer;
  const LayerTiling& t = ctx.layer().tiling;
  Instruction op = make_op("conv", core);
  for (std::size_t i = 0; i < inputs; ++i)
    op.inputs.push_back(tensor(AddressSpace::Nram, in_at + i * t.in_bytes,
                               matrix_band_shape(l, band.in_rows, l.in.w, ch.ci), DType::Int8));
  const std::uint64_t wram_at = mc.block_half == 1 ? t.kind(ctx.hw()).wram.capacity_bytes / 2 : 0;
  const bool transposed = l.kind == LayerKind::Matmul && !l.transpose_b;  // B's block is [k, n] as stored
  op.inputs.push_back(tensor(AddressSpace::Wram, wram_at,
                             transposed ? std::vector<std::uint64_t>{ch.ci, 1, 1, ch.co} : weight_shape(l, t, ch.co, ch.ci),
                             DType::Int8));
  const std::vector<std::uint64_t> pad = {band.pad_top, band.pad_bottom, l.pad[2], l.pad[3]};
  const std::vector<std::uint64_t> stride = {l.sh, l.sw};
  op.params = {{"stride", stride}, {"padding", pad}};
  if (transposed) op.params["transposed_weights"] = true;
  if (t.requantize_on_result_path) op.params.update(requant_params_of(l, ch.first_co, ch.co));
  return op;
}

// The input a band's convs read, and the loads that wrote it. Weight-stationary loads the
// band into the tile's own slot every time; feature-map- and row-stationary keep it in
// NRAM while the weight blocks stream past, loaded by the core's first block of the band.
struct BandInput {
  std::uint32_t slot = 0;
  std::uint64_t at = 0;
  BandWriters loads;
};

BandInput band_input(EmitContext& ctx, MatrixCore& mc, std::uint32_t core, std::uint64_t tile, std::size_t inputs,
                     const BandChannels& ch) {
  const Layer& l = ctx.layer().layer;
  const LayerTiling& t = ctx.layer().tiling;
  const auto band = t.band_tile(l, tile);
  const bool resident = input_resident(t);
  if (resident && mc.resident.tile == tile && mc.resident.first_ci == ch.first_ci)
    return {mc.resident.slot, ctx.band_slot(mc.resident.slot, inputs).base, mc.resident.loads};
  CoreState& cs = ctx.core(core);
  const BandSlot slot = resident ? ctx.band_slot(std::uint32_t(mc.bands_loaded++ % t.buffers), inputs) : ctx.next_slot(cs, inputs);
  // A band the matrix unit takes as one row is read whole by its first tile.
  BandInput in{slot.index, slot.base,
               ctx.load_band(core, slot, band.window, band.image, inputs, ch.first_ci, ch.ci, !positions_in_one_row(l))};
  if (resident) mc.resident = {tile, ch.first_ci, in.slot, in.loads};
  return in;
}

// How a conv waits for its data (seed004's start rule, LoadOrder.h ComputeUnit): staged
// granules count from the start of the producer's output, so only a load that starts
// the band window the conv reads may release it row by row, and only a weight block
// loaded whole by one instruction channel by channel.
void wait_for_data(Instruction& op, const BandInput& in, bool starts_window, const MatrixCore& mc,
                   std::optional<ComputeUnit> unit) {
  for (const auto& [id, mode] : in.loads) {
    const bool staged = mode == DependencyMode::Staged && starts_window && unit != ComputeUnit::Instruction;
    depend(op, std::int64_t(id), staged ? DependencyMode::Staged : DependencyMode::Full);
  }
  const bool by_round = unit == ComputeUnit::Round && mc.weight_loads == 1;
  depend(op, mc.weights, by_round ? DependencyMode::Staged : DependencyMode::Full);
  if (by_round && !op.deps.empty() && op.deps.back().producer == std::uint64_t(mc.weights))
    op.deps.back().granularity = "channels";
}

// The output rows of tile `tile` its convs compute one at a time: the band, or for
// row-stationary its psum rows in turn.
std::vector<OutputRows> conv_rows(const LayerTiling& t, const Layer& l, std::uint64_t tile) {
  const auto band = t.band_tile(l, tile);
  const LoadOrderPlan* order = load_order_plan(t);
  const std::uint32_t step = order && order->psum_rows ? order->psum_rows : band.rows;
  std::vector<OutputRows> out;
  for (std::uint32_t r = 0; r < band.rows; r += step) out.push_back({band.image, band.row0 + r, std::min(step, band.rows - r)});
  return out;
}

}  // namespace

void emit_matrix_tile(EmitContext& ctx, MatrixState& state, std::uint32_t core, std::uint64_t tile,
                      bool load_weights) {
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  CoreState& cs = ctx.core(core);
  MatrixCore& mc = state.cores[core];
  const BandChannels ch = band_channels(ctx, cs.share, tile);
  const std::size_t inputs = l.kind == LayerKind::Matmul ? 1 : c.inputs.size();  // B came in as weights
  // Weight-stationary loads the weights first; the others the feature map, then the kernels.
  if (load_weights && !input_resident(t)) emit_conv_weights(ctx, mc, core);
  const BandInput in = band_input(ctx, mc, core, tile, inputs, ch);
  if (load_weights && input_resident(t)) emit_conv_weights(ctx, mc, core);
  const BandWindow whole = t.band_tile(l, tile).window;
  const LoadOrderPlan* order = load_order_plan(t);
  for (const OutputRows& rows : conv_rows(t, l, tile)) {
    const BandWindow band = t.band(l, rows.row0, rows.rows);
    // Weight-stationary computes into the slot it loaded; the others take the next one.
    const BandSlot slot = input_resident(t) ? ctx.next_slot(cs, inputs) : ctx.band_slot(in.slot, inputs);
    const std::uint64_t offset = std::uint64_t(band.in_row0 - whole.in_row0) * l.in.w * ch.ci;
    Instruction op = conv_op(ctx, mc, core, band, in.at + offset, inputs, ch);
    wait_for_data(op, in, offset == 0, mc, order ? order->unit : std::nullopt);
    // int32 accumulators go through NRAM to the vector unit's requant, unless the matrix unit
    // requantizes on its result path.
    const bool accumulates = !t.requantize_on_result_path;
    const auto out_shape = matrix_band_shape(l, rows.rows, l.out.w, ch.co);
    depend(op, accumulates ? cs.acc_reader[slot.index] : cs.out_reader[slot.index]);
    op.outputs = {tensor(AddressSpace::Nram, accumulates ? slot.acc_at : slot.out_at, out_shape,
                         accumulates ? DType::Int32 : DType::Int8)};
    const std::uint64_t compute = ctx.push(std::move(op));
    cs.in_reader[in.slot] = std::int64_t(compute);
    for (std::uint32_t h = 0; h < 2; ++h)
      if (mc.block_half == 2 || mc.block_half == h) mc.wram_reader[h] = std::int64_t(compute);
    if (splits_ci(t.split)) {  // partial sums: emit_reduction takes it from here
      mc.acc_writer = std::int64_t(compute);
      return;
    }
    finish_rows(ctx, core, compute, slot, accumulates, out_shape, rows, ch.first_co, ch.co);
  }
}

std::unique_ptr<LoweringState> MatrixLowering::make_state(const EmitContext& ctx) const {
  return std::make_unique<MatrixState>(ctx.hw().chip.cores());
}

void MatrixLowering::place_workload(EmitContext& ctx) const {
  place_exchange_slots(ctx, static_cast<MatrixState&>(*ctx.state(*this)));
}

// A matmul's co blocks are runs of its tiles (LayerTiling::runs_per_image).
std::uint32_t MatrixLowering::passes(const EmitContext& ctx) const {
  return ctx.layer().layer.kind == LayerKind::Matmul ? 1 : ctx.layer().tiling.co_blocks;
}

void MatrixLowering::see_layer(EmitContext& ctx) const {
  note_cache_layout(ctx, static_cast<MatrixState&>(*ctx.state(*this)));
}

void MatrixLowering::start_layer(EmitContext& ctx) const {
  auto& state = static_cast<MatrixState&>(*ctx.state(*this));
  for (std::uint32_t core : ctx.layer().tiling.cores) {
    state.cores[core].b_run = -1;
    state.cores[core].resident = {};
    state.cores[core].bands_loaded = 0;
  }
}

void MatrixLowering::emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const {
  auto& state = static_cast<MatrixState&>(*ctx.state(*this));
  const CompiledLayer& c = ctx.layer();
  MatrixCore& mc = state.cores[core];
  bool load_weights = false;
  if (c.layer.kind == LayerKind::Matmul) {
    if (std::int64_t(tile / c.tiling.bands) != mc.b_run) emit_matmul_weights(ctx, mc, core, tile);
  } else {
    if (c.tiling.core_block(c.layer, ctx.core(core).share, ctx.block()).second == 0) return;  // no such block in its share
    // With the input resident every band takes every block in turn (one block: loaded once).
    load_weights = ctx.step() == 0 || (input_resident(c.tiling) && c.tiling.co_blocks > 1);
  }
  emit_matrix_tile(ctx, state, core, tile, load_weights);
}

void MatrixLowering::end_step(EmitContext& ctx) const {
  if (splits_ci(ctx.layer().tiling.split))
    emit_reduction(ctx, static_cast<MatrixState&>(*ctx.state(*this)), ctx.step());
}

}  // namespace npusim
