// Depthwise conv, pooling, row ops, add and relu: one vector-unit instruction per band,
// between the band's loads and its store.
#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_vector/VectorLowering.h"
#include "apps/compiler/lower_vector/VectorOps.h"

namespace npusim {
namespace {

class VectorState : public LoweringState {
 public:
  explicit VectorState(std::uint32_t cores) : weights(cores, kNone) {}
  std::vector<std::int64_t> weights;  // per core: the current layer's last depthwise weight load
};

const char* op_name(const Layer& l) {
  if (l.kind == LayerKind::Depthwise) return "dwconv";
  if (l.kind == LayerKind::Pool) return "pool";
  if (l.is_row_op()) return layer_kind_name(l.kind);
  if (l.kind == LayerKind::Mul || l.kind == LayerKind::Mask || l.kind == LayerKind::Upsample)
    return layer_kind_name(l.kind);
  return l.kind == LayerKind::Add || l.kind == LayerKind::AddConstant ? "add" : "relu";
}

// Where the band lies in the whole maps: its source coordinates depend on them.
nlohmann::json upsample_params(const Layer& l, const BandWindow& band, std::uint32_t row0) {
  return {{"mode", l.resample.bilinear ? "bilinear" : "nearest"},
          {"coordinates", resize_coords_name(l.resample.coords)},
          {"nearest_mode", nearest_round_name(l.resample.nearest)},
          {"map", {l.in.h, l.in.w, l.out.h, l.out.w}},
          {"rows", {band.in_row0, row0}}};
}

nlohmann::json op_params(const Layer& l, const BandWindow& band, std::uint32_t row0) {
  const std::vector<std::uint64_t> pad = {band.pad_top, band.pad_bottom, l.pad[2], l.pad[3]};
  const std::vector<std::uint64_t> stride = {l.sh, l.sw};
  nlohmann::json params = nlohmann::json::object();
  if (l.kind == LayerKind::Depthwise) {
    params = {{"stride", stride}, {"padding", pad}};
  } else if (l.kind == LayerKind::Pool) {
    params = {{"kernel", {l.kh, l.kw}}, {"stride", stride}, {"padding", pad}, {"mode", l.pool_max ? "max" : "avg"}};
  } else if (l.is_row_op()) {
    if (l.kind == LayerKind::Softmax) params["segment"] = l.in.c / l.heads;
    if (l.kind != LayerKind::LayerNorm) params["frac_bits"] = l.frac_bits;
  } else if (l.kind == LayerKind::Mul) {
    params["shift"] = l.shift;
  } else if (l.kind == LayerKind::Mask) {
    params["fill"] = l.fill;
  } else if (l.kind == LayerKind::Upsample) {
    params = upsample_params(l, band, row0);
  }
  return params;
}

// Depthwise weights sit in the NRAM region in front of the band slots.
void load_depthwise_weights(EmitContext& ctx, VectorState& state, std::uint32_t core) {
  const CompiledLayer& c = ctx.layer();
  const CoreState& cs = ctx.core(core);
  ctx.emit_weights(core, tensor(AddressSpace::Nram, 0, {}, DType::Int8), {cs.last_store},
                   c.tiling.core_block(c.layer, cs.share, ctx.block()), c.tiling.core_channels_in(c.layer, cs.share),
                   state.weights[core]);
}

// A mul's gate (one value per channel of the image) into the slot's second input region,
// before the band: a layer's first load on a core waits for its producers and NRAM.
BandWriters load_gate(EmitContext& ctx, std::uint32_t core, const BandSlot& slot, std::uint32_t image) {
  const CompiledLayer& c = ctx.layer();
  const std::uint32_t channels = c.layer.in.c;
  BandWriters loads;
  ctx.emit_band_loads(core, ctx.window_pieces(core, c.inputs[1], image, 1, 1, channels, 0, channels),
                      slot.base + c.tiling.in_bytes, ctx.core(core).in_reader[slot.index], false,
                      {1, std::uint64_t(image) * channels, std::uint64_t(image + 1) * channels}, loads);
  for (auto& load : loads) load.second = DependencyMode::Full;
  return loads;
}

// The rows of an add_constant's or mask's constant under the band (the same rows for
// every image), loaded as emit_weights loads weight blocks, a position of c bytes
// standing for an output channel.
void load_constant_rows(EmitContext& ctx, std::uint32_t core, const BandSlot& slot, const BandWindow& band,
                        std::int64_t& load) {
  const Layer& l = ctx.layer().layer;
  ctx.emit_weights(core, tensor(AddressSpace::Nram, slot.base + ctx.layer().tiling.in_bytes, {}, DType::Int8),
                   {ctx.core(core).in_reader[slot.index]}, {band.in_row0 * l.in.w, band.in_rows * l.in.w}, {0, l.in.c},
                   load);
}

}  // namespace

nlohmann::json requant_params_of(const Layer& l, std::uint32_t first_co, std::uint32_t co) {
  nlohmann::json params = {{"shift", l.shift}, {"relu", l.relu}};
  if (l.bias_values)
    params["bias"] = std::vector<std::int32_t>(l.bias_values->begin() + first_co, l.bias_values->begin() + first_co + co);
  return params;
}

Instruction requant_op(std::uint32_t core, const TensorOperand& sums, std::uint64_t out_at, const Layer& l,
                       std::uint32_t first_co) {
  Instruction post = make_op("requant", core);
  post.inputs = {sums};
  post.outputs = {tensor(AddressSpace::Nram, out_at, sums.shape, DType::Int8)};
  post.params = requant_params_of(l, first_co, std::uint32_t(sums.shape.back()));
  return post;
}

void finish_band(EmitContext& ctx, std::uint32_t core, std::uint64_t compute, const BandSlot& slot, bool accumulates,
                 const std::vector<std::uint64_t>& out_shape, std::uint64_t tile, std::uint32_t first_co,
                 std::uint32_t co) {
  const auto band = ctx.layer().tiling.band_tile(ctx.layer().layer, tile);
  finish_rows(ctx, core, compute, slot, accumulates, out_shape, {band.image, band.row0, band.rows}, first_co, co);
}

void finish_rows(EmitContext& ctx, std::uint32_t core, std::uint64_t compute, const BandSlot& slot, bool accumulates,
                 const std::vector<std::uint64_t>& out_shape, const OutputRows& out, std::uint32_t first_co,
                 std::uint32_t co) {
  const Layer& l = ctx.layer().layer;
  CoreState& cs = ctx.core(core);
  std::uint64_t result = compute;
  if (accumulates || (l.kind == LayerKind::Add && l.relu)) {
    // int32 -> int8 (with the layer's ReLU); an add with ReLU clamps in place.
    Instruction post = accumulates ? requant_op(core, tensor(AddressSpace::Nram, slot.acc_at, out_shape, DType::Int32),
                                                slot.out_at, l, first_co)
                                   : make_op("relu", core);
    if (!accumulates) {
      post.inputs = {tensor(AddressSpace::Nram, slot.out_at, out_shape, DType::Int8)};
      post.outputs = post.inputs;
    }
    depend(post, std::int64_t(compute), DependencyMode::Staged);
    depend(post, cs.out_reader[slot.index]);
    result = ctx.push(std::move(post));
    if (accumulates) cs.acc_reader[slot.index] = std::int64_t(result);
  }
  ctx.emit_rows_store(core, {{result, DependencyMode::Staged}}, slot.out_at, slot.index, out, first_co, co);
}

std::unique_ptr<LoweringState> VectorLowering::make_state(const EmitContext& ctx) const {
  return std::make_unique<VectorState>(ctx.hw().chip.cores());
}

void VectorLowering::emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const {
  auto& state = static_cast<VectorState&>(*ctx.state(*this));
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  CoreState& cs = ctx.core(core);
  const auto [first_co, co] = t.core_block(l, cs.share, ctx.block());
  if (co == 0) return;  // its co share has no such block
  if (ctx.step() == 0 && ctx.block() == 0 && l.kind == LayerKind::Depthwise) load_depthwise_weights(ctx, state, core);
  const auto [image, row0, rows, band] = t.band_tile(l, tile);
  // A pool in channel blocks reads its block's channels.
  const auto [first_ci, ci] = t.co_block && l.kind == LayerKind::Pool ? std::pair{first_co, co}
                                                                      : t.core_channels_in(l, cs.share);
  const BandSlot slot = ctx.next_slot(cs, c.inputs.size());
  BandWriters gate = l.gated() ? load_gate(ctx, core, slot, image) : BandWriters{};
  const std::size_t banded = l.gated() ? 1 : c.inputs.size();
  BandWriters loads = ctx.load_band(core, slot, band, image, banded, first_ci, ci, true);
  loads.insert(loads.end(), gate.begin(), gate.end());
  const auto out_shape = nhwc(1, rows, l.out.w, co);
  Instruction op = make_op(op_name(l), core);
  for (std::size_t i = 0; i < c.inputs.size(); ++i)
    op.inputs.push_back(tensor(AddressSpace::Nram, slot.base + i * t.in_bytes,
                               i < banded ? nhwc(1, band.in_rows, l.in.w, ci) : nhwc(1, 1, 1, l.in.c), DType::Int8));
  if (l.has_constant()) {  // the band's rows of the constant, beside the input's
    op.inputs.push_back(tensor(AddressSpace::Nram, slot.base + t.in_bytes, nhwc(1, band.in_rows, l.in.w, l.in.c),
                               DType::Int8));
    load_constant_rows(ctx, core, slot, band, state.weights[core]);
    depend(op, state.weights[core]);
  }
  for (const auto& [id, mode] : loads) depend(op, std::int64_t(id), mode);
  if (l.kind == LayerKind::Depthwise) op.inputs.push_back(tensor(AddressSpace::Nram, 0, weight_shape(l, t, co, ci), DType::Int8));
  op.params = op_params(l, band, row0);
  // int32 sums go through NRAM to the requant (depthwise), the rest write int8 directly.
  const bool accumulates = l.has_weights() && !t.requantize_on_result_path;
  if (l.has_weights()) depend(op, state.weights[core]);
  depend(op, accumulates ? cs.acc_reader[slot.index] : cs.out_reader[slot.index]);
  op.outputs = {tensor(AddressSpace::Nram, accumulates ? slot.acc_at : slot.out_at, out_shape,
                       accumulates ? DType::Int32 : DType::Int8)};
  const std::uint64_t compute = ctx.push(std::move(op));
  cs.in_reader[slot.index] = std::int64_t(compute);
  finish_band(ctx, core, compute, slot, accumulates, out_shape, tile, first_co, co);
}

}  // namespace npusim
