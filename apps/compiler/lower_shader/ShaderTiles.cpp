// Shader layers (seed003): the control registers, then fetch / multiply / return per tile.
#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_shader/ShaderLowering.h"
#include "apps/compiler/lower_shader/ShaderState.h"
#include "apps/compiler/lower_vector/VectorOps.h"

namespace npusim {
namespace {

// What one tile of a register group works with.
struct GroupTile {
  std::uint32_t core = 0, index = 0;  // the group's index
  const ShaderTile* tile = nullptr;
  std::uint64_t base = 0;             // the group's first register-file byte
  nlohmann::json positions, filters;
};

// Whatever the last layer left in the group must be read before this layer overwrites it.
void wait_for_group(const ShaderCore::RegisterGroup& group, Instruction& fetch) {
  if (!group.fresh) return;
  for (std::int64_t id : {group.ifm_reader, group.weight_reader, group.result_reader}) depend(fetch, id);
}

// The group's filters, fetched when it holds another block.
TensorOperand fetch_filters(EmitContext& ctx, ShaderCore::RegisterGroup& group, const GroupTile& g) {
  const CompiledLayer& c = ctx.layer();
  const ShaderConvPlan& plan = shader_plan(c.tiling);
  const ShaderTile& t = *g.tile;
  const TensorOperand weights_rf = tensor(AddressSpace::Rf, g.base + plan.layout.weights, {t.filters, plan.K}, DType::Int8);
  if (group.filter_block == std::int64_t(t.first_filter)) return weights_rf;
  Instruction fetch = make_op("fetch_ml", g.core);
  fetch.inputs = {tensor(AddressSpace::Dram, c.weights_offset + t.first_filter * plan.K,
                         {t.filters, plan.layer.kh, plan.layer.kw, plan.layer.ci}, DType::Int8)};
  fetch.outputs = {weights_rf};
  fetch.params = {{"data", "weights"}, {"filters", g.filters}};
  depend(fetch, group.weight_reader);
  wait_for_group(group, fetch);
  group.weights = std::int64_t(ctx.push(std::move(fetch)));
  group.filter_block = t.first_filter;
  return weights_rf;
}

// The tile's image rows into the group; returns the fetch.
std::int64_t fetch_image(EmitContext& ctx, ShaderCore::RegisterGroup& group, const GroupTile& g,
                         const TensorOperand& image_rf) {
  const CompiledLayer& c = ctx.layer();
  const ConvShape& l = shader_plan(c.tiling).layer;
  const ShaderTile& t = *g.tile;
  CoreState& cs = ctx.core(g.core);
  Instruction fetch = make_op("fetch_ml", g.core);
  const std::uint64_t row_bytes = std::uint64_t(l.wi) * l.ci;
  const std::uint64_t first_row = std::uint64_t(t.positions.image) * l.hi + t.rows.first;
  fetch.inputs = {tensor(AddressSpace::Dram, c.inputs[0].address() + first_row * row_bytes, {t.rows.count, l.wi, l.ci},
                         DType::Int8)};
  fetch.outputs = {image_rf};
  fetch.params = {{"data", "ifm"}, {"image", t.positions.image}, {"positions", g.positions}};
  ctx.wait_for_writers(fetch, {0, first_row * row_bytes, (first_row + t.rows.count) * row_bytes});
  depend(fetch, group.ifm_reader);
  wait_for_group(group, fetch);
  group.fresh = false;
  if (!cs.loaded_ifmap) ctx.wait_for_producers(fetch);
  cs.loaded_ifmap = true;
  const std::int64_t fetched = std::int64_t(ctx.push(std::move(fetch)));
  ctx.record_read(std::uint64_t(fetched), 0);
  return fetched;
}

// The previous tile's return, now behind this tile's fetch.
void release_return(EmitContext& ctx, ShaderCore& sc, CoreState& cs) {
  if (!sc.held_return) return;
  ctx.wait_for_overwritten(*sc.held_return, cs);
  sc.groups[sc.held_group].result_reader = cs.last_store = std::int64_t(ctx.push(std::move(*sc.held_return)));
  ctx.record_write(std::uint64_t(cs.last_store), sc.held_bytes.first, sc.held_bytes.second);
  sc.held_return.reset();
}

// The results back to their NHWC addresses, held until the next tile's fetch is queued.
void hold_return(EmitContext& ctx, ShaderCore& sc, const GroupTile& g, const TensorOperand& results,
                 std::int64_t product) {
  const CompiledLayer& c = ctx.layer();
  const ConvShape& l = shader_plan(c.tiling).layer;
  const ShaderTile& t = *g.tile;
  Instruction back = make_op("ml_return", g.core);
  const std::uint64_t first = AddressGenerator::return_offset(l, t.positions.image, t.positions.first / l.wo(),
                                                              t.positions.first % l.wo(), t.first_filter);
  back.inputs = {results};
  back.outputs = {tensor(AddressSpace::Dram, c.output.address() + first, {t.positions.count, t.filters}, DType::Int8)};
  if (t.filters != l.co) back.outputs[0].pitch = l.co;
  back.params = {{"image", t.positions.image}, {"positions", g.positions}, {"filters", g.filters}};
  depend(back, product);
  const std::uint64_t first_position = std::uint64_t(t.positions.image) * l.ho() * l.wo() + t.positions.first;
  sc.held_bytes = {first_position * l.co, (first_position + t.positions.count) * l.co};
  sc.held_return = std::move(back);
  sc.held_group = g.index;
}

}  // namespace

void emit_shader_setup(EmitContext& ctx, std::uint32_t core) {
  const CompiledLayer& c = ctx.layer();
  const ConvShape& g = shader_plan(c.tiling).layer;
  const std::vector<std::pair<const char*, std::uint64_t>> registers = {
      {"ifm_x", g.wi}, {"ifm_y", g.hi}, {"ifm_components", g.ci}, {"ifm_stride", g.sw}, {"ifm_stride_y", g.sh},
      {"ifm_depth_bits", 8 * g.element_bytes}, {"filters", g.co}, {"filter_x", g.kw}, {"filter_y", g.kh},
      {"out_base", c.output.address()}, {"ifm_base", c.inputs[0].address()}, {"weight_base", c.weights_offset},
      {"ifm_batch", g.n}, {"pad_top", g.pad_top}, {"pad_bottom", g.pad_bottom}, {"pad_left", g.pad_left},
      {"pad_right", g.pad_right}};
  for (const auto& [name, value] : registers) {
    Instruction set = make_op("ml_set", core);
    set.params = {{"register", name}, {"value", value}};
    ctx.push(std::move(set));
  }
}

// One register-group tile: its filters (when the group holds another block), its
// image rows, the multiply with requantization, and the return to NHWC addresses.
void emit_shader_tile(EmitContext& ctx, ShaderState& state, std::uint32_t core, std::uint64_t index) {
  const CompiledLayer& c = ctx.layer();
  const ShaderConvPlan& plan = shader_plan(c.tiling);
  const ShaderTile& t = plan.tiles[index];
  CoreState& cs = ctx.core(core);
  ShaderCore& sc = state.cores[core];
  GroupTile g{core, std::uint32_t(cs.emitted++ % plan.groups), &t, 0, {t.positions.first, t.positions.count},
              {t.first_filter, t.filters}};
  g.base = plan.group_offset(g.index);
  auto& group = sc.groups[g.index];
  const TensorOperand weights_rf = fetch_filters(ctx, group, g);
  const bool compact = plan.site == UnrollSite::RfRead;
  const TensorOperand image_rf = tensor(AddressSpace::Rf, g.base + plan.layout.ifm,
                                        compact ? std::vector<std::uint64_t>{t.rows.count, plan.layer.wi, plan.layer.ci}
                                                : std::vector<std::uint64_t>{t.positions.count, plan.K},
                                        DType::Int8);
  const std::int64_t fetched = fetch_image(ctx, group, g, image_rf);

  const TensorOperand results = tensor(AddressSpace::Rf, g.base + plan.layout.results, {t.positions.count, t.filters}, DType::Int8);
  Instruction matmul = make_op("ml_matmul", core);
  matmul.inputs = {image_rf, weights_rf};
  matmul.outputs = {results};
  matmul.params = {{"image", t.positions.image}, {"positions", g.positions}, {"filters", g.filters},
                   {"shift", c.layer.shift}, {"relu", c.layer.relu}};
  if (c.layer.bias_values) matmul.params["bias"] = requant_params_of(c.layer, t.first_filter, t.filters)["bias"];
  depend(matmul, fetched);
  depend(matmul, group.weights);
  depend(matmul, group.result_reader);
  const std::int64_t product = std::int64_t(ctx.push(std::move(matmul)));
  group.ifm_reader = group.weight_reader = product;
  release_return(ctx, sc, cs);
  hold_return(ctx, sc, g, results, product);
  if (index + 1 == cs.end_tile) release_return(ctx, sc, cs);  // the core's last tile of the layer
}

std::unique_ptr<LoweringState> ShaderLowering::make_state(const EmitContext& ctx) const {
  return std::make_unique<ShaderState>(ctx.hw().chip.cores());
}

std::uint64_t ShaderLowering::tiles(const EmitContext& ctx) const { return shader_plan(ctx.layer().tiling).tiles.size(); }

void ShaderLowering::start_layer(EmitContext& ctx) const {
  auto& state = static_cast<ShaderState&>(*ctx.state(*this));
  for (std::uint32_t core : ctx.layer().tiling.cores)
    for (auto& g : state.cores[core].groups) {
      g.fresh = true;
      g.filter_block = -1;  // another layer's filters
    }
}

void ShaderLowering::emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const {
  if (ctx.step() == 0) emit_shader_setup(ctx, core);
  emit_shader_tile(ctx, static_cast<ShaderState&>(*ctx.state(*this)), core, tile);
}

}  // namespace npusim
