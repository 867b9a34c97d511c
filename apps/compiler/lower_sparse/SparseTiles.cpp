// Sparse layers (seed001): the weights compressed offline (or once on the chip), then per band: compress the input
// rows into one of the core's two DRAM slots (or, when the producing sparse layer stored
// them compressed, take its rows as they are), and sparse_conv them.
#include <algorithm>
#include <array>
#include <map>
#include <string>

#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_sparse/SparseChaining.h"
#include "apps/compiler/lower_sparse/SparseLowering.h"
#include "models/sparse_cluster/SparseClusterConfig.h"

namespace npusim {
namespace {

bool fused_pool(const CompiledLayer& c) {
  const SparseLayerPlan* plan = c.tiling.engine_plan<SparseLayerPlan>(SparseLowering::kName);
  return c.tiling.engine == SparseLowering::kName && plan && plan->fused_pool;
}

// Per layer: the index of the pool layer pooled in its back end, or -1.
std::vector<std::int64_t> fused_pools(const std::vector<CompiledLayer>& layers) {
  std::vector<std::int64_t> pooled_by(layers.size(), -1);
  for (std::size_t p = 0; p < layers.size(); ++p)
    if (fused_pool(layers[p]))
      for (std::size_t c = 0; c < p; ++c)
        if (layers[c].layer.name == layers[p].layer.inputs.at(0)) pooled_by[c] = std::int64_t(p);
  return pooled_by;
}

class SparseState : public LoweringState {
 public:
  SparseState(const EmitContext& ctx)
      : chaining(ctx.layers(), ctx.workload().independent_layers),
        hand_off(hand_offs(ctx.layers(), chaining, ctx.hw(), ctx.workload().batch)),
        pooled_by(fused_pools(ctx.layers())),
        packed_reader(ctx.hw().chip.cores(), {kNone, kNone}) {}
  SparseChaining chaining;
  std::vector<bool> hand_off;  // per layer: its output goes to the next layer's units over 920 (¶84)
  // Per conv layer, the pool layer its back end pools for (¶168), or -1; and per image, the
  // instruction that wrote the current pool's output.
  std::vector<std::int64_t> pooled_by;
  std::map<std::uint32_t, std::int64_t> fused_writer;
  // The layer whose output layer `i`'s instructions write: its fused pool's, or its own.
  std::size_t output_layer(std::size_t i) const { return pooled_by[i] >= 0 ? std::size_t(pooled_by[i]) : i; }
  // Per layer whose output is stored compressed, the DRAM of its index buffer (its values
  // take the dense output's place).
  std::map<std::size_t, std::uint64_t> index_buffer_at;
  // Compressed input bands: two DRAM slots per core, shared by every sparse layer.
  std::uint64_t slots = 0, slot_bytes = 0;
  std::int64_t packed_weights = kNone;  // the current layer's weight compress
  // Per sparse layer (by name, unique in a workload), where its compressed weights go.
  std::map<std::string, std::uint64_t> packed_weights_at;
  // Per core, the sparse_conv that last read each of its compressed-band slots.
  std::vector<std::array<std::int64_t, 2>> packed_reader;
};

SparseState& state_of(EmitContext& ctx, const SparseLowering& lowering) {
  return static_cast<SparseState&>(*ctx.state(lowering));
}

// The layer's weights are compressed outside the accelerator (the trace's DRAM image holds
// them compressed), not by a compress op on the chip.
bool weights_offline(const EmitContext& ctx, const CompiledLayer& c) {
  const auto& cfg = c.tiling.kind(ctx.hw()).block<SparseClusterConfig>(SparseClusterConfig::kSection);
  return cfg.weight_compression == WeightCompression::Offline;
}

void compress_weights(EmitContext& ctx, SparseState& state, std::uint32_t core) {
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  Instruction pack = make_op("compress", core);
  pack.inputs = {tensor(AddressSpace::Dram, c.weights_offset, weight_shape(l, c.tiling, l.out.c, l.in.c), DType::Int8)};
  pack.outputs = PackedRegion(state.packed_weights_at.at(l.name), c.weight_bytes).operands();
  pack.params = {{"assumed_zeros", l.weight_sparsity}};
  state.packed_weights = std::int64_t(ctx.push(std::move(pack)));
}

// The band's input rows compressed into `packed`; returns the compress.
std::int64_t compress_band(EmitContext& ctx, SparseState& state, std::uint32_t core, const LayerTiling::BandTile& b,
                           const RecursiveRegion& packed, std::uint32_t slot) {
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  CoreState& cs = ctx.core(core);
  Instruction pack = make_op("compress", core);
  const std::uint64_t in_row = std::uint64_t(b.image) * l.in.h + b.window.in_row0;
  const std::uint64_t in_row_bytes = std::uint64_t(l.in.w) * l.in.c;
  pack.inputs = {tensor(AddressSpace::Dram, c.inputs[0].address() + in_row * in_row_bytes,
                        {b.window.in_rows, l.in.w, l.in.c}, DType::Int8)};
  pack.outputs = packed.operands();
  pack.params = {{"assumed_zeros", l.activation_sparsity}};
  ctx.wait_for_writers(pack, {0, in_row * in_row_bytes, (in_row + b.window.in_rows) * in_row_bytes});
  depend(pack, state.packed_reader[core][slot]);
  if (!cs.loaded_ifmap) ctx.wait_for_producers(pack);
  cs.loaded_ifmap = true;
  const std::int64_t packed_id = std::int64_t(ctx.push(std::move(pack)));
  ctx.record_read(std::uint64_t(packed_id), 0);
  return packed_id;
}

// The band's input rows as a compressed tensor: compressed into one of the core's slots
// (their producer stored them dense), or the rows the producing sparse layer stored
// compressed, which `conv` then reads itself. Returns the compress, or kNone.
std::int64_t band_input(EmitContext& ctx, SparseState& state, std::uint32_t core, const LayerTiling::BandTile& b,
                        Instruction& conv) {
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  const std::uint64_t in_row = std::uint64_t(b.image) * l.in.h + b.window.in_row0;
  const std::int64_t producer = state.chaining.compressed_input[ctx.layer_index()];
  if (producer < 0) {
    const std::uint32_t slot = std::uint32_t(ctx.core(core).emitted % 2);
    const RecursiveRegion packed =
        RecursiveRegion::in_block(state.slots + (2 * std::uint64_t(core) + slot) * state.slot_bytes,
                                  b.window.in_rows, l.in.w, l.in.c);
    conv.inputs = packed.operands();
    return compress_band(ctx, state, core, b, packed, slot);
  }
  const std::uint64_t in_row_bytes = std::uint64_t(l.in.w) * l.in.c;
  const RecursiveRegion rows(c.inputs[0].address() + in_row * in_row_bytes, 0, b.window.in_rows, l.in.w, l.in.c);
  conv.inputs = RecursiveRegion(rows.values, state.index_buffer_at.at(std::size_t(producer)) + in_row * rows.pitch,
                                rows.rows, rows.w, rows.c)
                    .operands();
  ctx.wait_for_writers(conv, {0, in_row * in_row_bytes, (in_row + b.window.in_rows) * in_row_bytes});
  if (!ctx.core(core).loaded_ifmap) ctx.wait_for_producers(conv);
  ctx.core(core).loaded_ifmap = true;
  return kNone;
}

// Where the band's output rows go: dense int8 rows, or values and index buffer rows in the
// recursive format when the next sparse layers take them compressed. A conv whose back end
// pools writes the pool layer's output, the whole pooled map of the band's image.
void band_output(EmitContext& ctx, SparseState& state, const LayerTiling::BandTile& b, Instruction& conv) {
  const std::size_t o = state.output_layer(ctx.layer_index());
  const CompiledLayer& c = ctx.layers()[o];
  const Layer& l = c.layer;
  const bool pooled = o != ctx.layer_index();
  const std::uint64_t rows = pooled ? l.out.h : b.rows, row0 = pooled ? 0 : b.row0;
  const std::uint64_t out_row = std::uint64_t(b.image) * l.out.h + row0, out_row_bytes = std::uint64_t(l.out.w) * l.out.c;
  const std::uint64_t values = c.output.address() + out_row * out_row_bytes;
  if (pooled)
    conv.params["pool"] = {{"max", l.pool_max}, {"kernel", {l.kh, l.kw}}, {"stride", {l.sh, l.sw}},
                           {"padding", {l.pad[0], l.pad[1], l.pad[2], l.pad[3]}}};
  if (!state.chaining.compressed_output[o]) {
    conv.outputs = {tensor(AddressSpace::Dram, values, {rows, l.out.w, l.out.c}, DType::Int8)};
    return;
  }
  const RecursiveRegion shape(values, 0, rows, l.out.w, l.out.c);
  conv.outputs = RecursiveRegion(values, state.index_buffer_at.at(o) + out_row * shape.pitch, rows, l.out.w, l.out.c)
                     .operands();
}

// A pool layer pooled in its conv's back end emits nothing: the conv's instruction wrote its
// output, so its readers wait for that.
void record_fused_pool(EmitContext& ctx, SparseState& state, std::uint32_t core, std::uint64_t tile) {
  const Layer& l = ctx.layer().layer;
  const auto b = ctx.layer().tiling.band_tile(l, tile);
  const std::int64_t id = state.fused_writer.at(b.image);
  const std::uint64_t out_row = std::uint64_t(b.image) * l.out.h + b.row0, out_row_bytes = std::uint64_t(l.out.w) * l.out.c;
  ctx.core(core).last_store = id;
  ctx.record_write(std::uint64_t(id), out_row * out_row_bytes, (out_row + b.rows) * out_row_bytes);
}

// seed001 ¶84: the output left in the FM memory units for the next layer, or the input
// taken from them.
void hand_off_params(const EmitContext& ctx, const SparseState& state, Instruction& conv) {
  const std::size_t i = ctx.layer_index();
  if (state.hand_off[state.output_layer(i)]) conv.params["hand_off"] = true;
  const std::int64_t producer = state.chaining.compressed_input[i];
  if (producer >= 0 && state.hand_off[std::size_t(producer)]) conv.params["handed_in"] = true;
}

}  // namespace

std::unique_ptr<LoweringState> SparseLowering::make_state(const EmitContext& ctx) const {
  return std::make_unique<SparseState>(ctx);
}

// The compressed weights; a compressed output's index buffer; the band slots' size.
void SparseLowering::place_layer(EmitContext& ctx, CompiledLayer& c) const {
  SparseState& state = state_of(ctx, *this);
  const Layer& l = c.layer;
  const std::size_t i = std::size_t(&c - ctx.layers().data());
  if (l.has_weights()) state.packed_weights_at[l.name] = ctx.dram().allocate(PackedRegion::bytes(c.weight_bytes));
  if (state.chaining.compressed_output[i]) {
    const std::uint64_t rows = std::uint64_t(ctx.workload().batch) * l.out.h;
    state.index_buffer_at[i] = ctx.dram().allocate(RecursiveRegion::bytes(rows, l.out.w, l.out.c) -
                                                   dram_aligned(rows * l.out.w * l.out.c));
  }
  if (state.chaining.compressed_input[i] >= 0 || fused_pool(c)) return;
  const std::uint64_t band_rows = c.tiling.engine_plan<SparseLayerPlan>(name())->band_elements / (std::uint64_t(l.in.w) * l.in.c);
  state.slot_bytes = std::max(state.slot_bytes, RecursiveRegion::bytes(band_rows, l.in.w, l.in.c));
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> SparseLowering::offline_weights(const EmitContext& ctx,
                                                                                       std::size_t layer) const {
  const CompiledLayer& c = ctx.layers()[layer];
  if (c.tiling.engine != name() || !weights_offline(ctx, c)) return std::nullopt;
  const auto& state = static_cast<const SparseState&>(*ctx.state(*this));
  const PackedRegion packed(state.packed_weights_at.at(c.layer.name), c.weight_bytes);
  return std::make_pair(packed.values, packed.indices);
}

// Not a compressed output, nor the output of a conv whose back end pools (never written).
bool SparseLowering::dense_output(const EmitContext& ctx, std::size_t layer) const {
  const auto& state = static_cast<const SparseState&>(*ctx.state(*this));
  return !state.chaining.compressed_output[layer] && state.pooled_by[layer] < 0;
}

// Two compressed-band slots per core, as large as the largest band of any sparse layer.
void SparseLowering::place_workload(EmitContext& ctx) const {
  SparseState& state = state_of(ctx, *this);
  state.slots = ctx.dram().allocate(2 * std::uint64_t(ctx.hw().chip.cores()) * state.slot_bytes);
}

void SparseLowering::emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const {
  SparseState& state = state_of(ctx, *this);
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  if (fused_pool(c)) return record_fused_pool(ctx, state, core, tile);
  if (ctx.step() == 0 && core == t.cores.front()) {
    state.packed_weights = kNone;
    if (!weights_offline(ctx, c)) compress_weights(ctx, state, core);
  }
  const auto b = t.band_tile(l, tile);
  CoreState& cs = ctx.core(core);
  const std::size_t o = state.output_layer(ctx.layer_index());
  const bool compressed_output = state.chaining.compressed_output[o];
  Instruction conv = make_op(compressed_output ? "sparse_conv_compressed" : "sparse_conv", core);
  const std::int64_t packed_id = band_input(ctx, state, core, b, conv);
  const std::uint32_t slot = std::uint32_t(cs.emitted++ % 2);
  for (auto& operand : PackedRegion(state.packed_weights_at.at(l.name), c.weight_bytes).operands())
    conv.inputs.push_back(operand);
  const std::uint64_t out_row = std::uint64_t(b.image) * l.out.h + b.row0, out_row_bytes = std::uint64_t(l.out.w) * l.out.c;
  nlohmann::json assumed = {{"ifm", l.activation_sparsity}, {"weights", l.weight_sparsity},
                            {"seed", ctx.workload().seed + ctx.layer_index()}};
  if (compressed_output) assumed["ofm"] = state.chaining.reader_zeros[o];
  conv.params = {{"ifm_shape", {b.window.in_rows, l.in.w, l.in.c}},
                 {"kernel", {t.kernel_h, t.kernel_w}},
                 {"stride", {l.sh, l.sw}},
                 {"padding", {b.window.pad_top, b.window.pad_bottom, l.pad[2], l.pad[3]}},
                 {"shift", l.shift},
                 {"relu", l.relu},
                 {"assumed_sparsity", assumed}};
  if (l.bias_values) conv.params["bias"] = *l.bias_values;
  band_output(ctx, state, b, conv);
  hand_off_params(ctx, state, conv);
  depend(conv, packed_id);
  depend(conv, state.packed_weights);
  ctx.wait_for_overwritten(conv, cs);
  const std::int64_t id = std::int64_t(ctx.push(std::move(conv)));
  if (packed_id == kNone) ctx.record_read(std::uint64_t(id), 0);
  else state.packed_reader[core][slot] = id;
  cs.last_store = id;
  state.fused_writer[b.image] = id;
  ctx.record_write(std::uint64_t(cs.last_store), out_row * out_row_bytes, (out_row + b.rows) * out_row_bytes);
}

}  // namespace npusim
