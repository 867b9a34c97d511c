// Shader layers (seed003): the control registers, then fetch / multiply / return per tile.
#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_shader/ShaderLowering.h"
#include "apps/compiler/lower_shader/ShaderState.h"
#include "apps/compiler/lower_vector/VectorOps.h"
#include "models/fetch_ml/FetchMlConfig.h"

namespace npusim {
namespace {

// What one tile of a register group works with.
struct GroupTile {
  std::uint32_t core = 0, index = 0;  // the group's index
  const ShaderTile* tile = nullptr;
  std::uint64_t base = 0;             // the group's first register-file byte
  nlohmann::json positions, filters;
  bool launched_by_hardware = false;  // auto-fetch: not the core's first tile of the layer
};

const FetchMlConfig& fetch_config(const EmitContext& ctx) {
  return ctx.layer().tiling.kind(ctx.hw()).block<FetchMlConfig>(FetchMlConfig::kSection);
}

// A fetch's auto mark (¶[0051]): the state machine launches every fetch after a core's first tile.
void mark_auto(Instruction& fetch, const GroupTile& g) {
  if (g.launched_by_hardware) fetch.params["auto"] = true;
}

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
  if (fetch_config(ctx).cache_bytes > 0) fetch.params["cache"] = "keep";  // the other group fetches them again
  mark_auto(fetch, g);
  depend(fetch, group.weight_reader);
  wait_for_group(group, fetch);
  group.weights = std::int64_t(ctx.push(std::move(fetch)));
  group.filter_block = t.first_filter;
  return weights_rf;
}

// The tile's image rows in DRAM, and the bytes of the layer's input they are.
TensorOperand image_rows(const EmitContext& ctx, const ShaderTile& t, InputBytes& bytes) {
  const CompiledLayer& c = ctx.layer();
  const ConvShape& l = shader_plan(c.tiling).layer;
  const std::uint64_t row_bytes = std::uint64_t(l.wi) * l.ci;
  const std::uint64_t first_row = std::uint64_t(t.positions.image) * l.hi + t.rows.first;
  bytes = {0, first_row * row_bytes, (first_row + t.rows.count) * row_bytes};
  return tensor(AddressSpace::Dram, c.inputs[0].address() + first_row * row_bytes, {t.rows.count, l.wi, l.ci},
                DType::Int8);
}

// The cache hint of a tile's image fetch (seed003 ¶25): keep its lines when the core's next
// tile reads some of the same rows (the halo), or when the whole image fits half the cache
// and another filter block will read it again; else stream them past the cache.
std::string image_hint(EmitContext& ctx, std::uint32_t core, std::uint64_t index) {
  const ShaderConvPlan& plan = shader_plan(ctx.layer().tiling);
  const ShaderTile& t = plan.tiles[index];
  const CoreState& cs = ctx.core(core);
  const std::uint64_t image = std::uint64_t(plan.layer.hi) * plan.layer.wi * plan.layer.ci * plan.layer.n;
  if (image <= fetch_config(ctx).cache_bytes / 2 && t.first_filter + plan.tile_filters < plan.layer.co) return "keep";
  if (index + 1 >= cs.end_tile) return "stream";
  const ShaderTile& next = plan.tiles[index + 1];
  const bool halo = next.first_filter == t.first_filter && next.positions.image == t.positions.image &&
                    next.rows.first < t.rows.first + t.rows.count;
  return halo ? "keep" : "stream";
}

// ml_preload of the core's next tile's rows (seed003 ¶[0050]), queued behind this tile's
// fetch: it runs while the next tile's register group is still busy.
void preload_next(EmitContext& ctx, std::uint32_t core, std::uint64_t index) {
  const ShaderConvPlan& plan = shader_plan(ctx.layer().tiling);
  const FetchMlConfig& cfg = fetch_config(ctx);
  if (cfg.cache_bytes == 0 || !cfg.preload || index + 1 >= ctx.core(core).end_tile) return;
  const ShaderTile& next = plan.tiles[index + 1];
  InputBytes bytes;
  Instruction preload = make_op("ml_preload", core);
  preload.inputs = {image_rows(ctx, next, bytes)};
  if (preload.inputs[0].bytes() > cfg.cache_bytes / 2) return;
  preload.params = {{"data", "ifm"}, {"image", next.positions.image},
                    {"positions", {next.positions.first, next.positions.count}}};
  ctx.wait_for_writers(preload, bytes);
  ctx.record_read(ctx.push(std::move(preload)), 0);
}

// The tile's image rows into the group; returns the fetch.
std::int64_t fetch_image(EmitContext& ctx, ShaderCore::RegisterGroup& group, const GroupTile& g,
                         const TensorOperand& image_rf, std::uint64_t index) {
  const ShaderTile& t = *g.tile;
  CoreState& cs = ctx.core(g.core);
  Instruction fetch = make_op("fetch_ml", g.core);
  InputBytes bytes;
  fetch.inputs = {image_rows(ctx, t, bytes)};
  fetch.outputs = {image_rf};
  fetch.params = {{"data", "ifm"}, {"image", t.positions.image}, {"positions", g.positions}};
  if (fetch_config(ctx).cache_bytes > 0) fetch.params["cache"] = image_hint(ctx, g.core, index);
  mark_auto(fetch, g);
  ctx.wait_for_writers(fetch, bytes);
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

void set_register(EmitContext& ctx, std::uint32_t core, const char* name, std::uint64_t value) {
  Instruction set = make_op("ml_set", core);
  set.params = {{"register", name}, {"value", value}};
  ctx.push(std::move(set));
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
  std::vector<std::pair<const char*, std::uint64_t>> modes;
  if (fetch_config(ctx).auto_fetch)  // the walk the state machine follows (¶[0051])
    modes = {{"auto_fetch", 1}, {"tile_positions", shader_plan(c.tiling).tile_positions},
             {"tile_filters", shader_plan(c.tiling).tile_filters}};
  for (const auto& [name, value] : registers) set_register(ctx, core, name, value);
  for (const auto& [name, value] : modes) set_register(ctx, core, name, value);
}

// One register-group tile: its filters (when the group holds another block), its
// image rows, the multiply with requantization, and the return to NHWC addresses.
void emit_shader_tile(EmitContext& ctx, ShaderState& state, std::uint32_t core, std::uint64_t index) {
  const CompiledLayer& c = ctx.layer();
  const ShaderConvPlan& plan = shader_plan(c.tiling);
  const ShaderTile& t = plan.tiles[index];
  CoreState& cs = ctx.core(core);
  ShaderCore& sc = state.cores[core];
  GroupTile g{core, std::uint32_t(cs.emitted % plan.groups), &t, 0, {t.positions.first, t.positions.count},
              {t.first_filter, t.filters}, fetch_config(ctx).auto_fetch && cs.emitted > 0};
  ++cs.emitted;
  g.base = plan.group_offset(g.index);
  auto& group = sc.groups[g.index];
  const TensorOperand weights_rf = fetch_filters(ctx, group, g);
  const bool compact = plan.site == UnrollSite::RfRead;
  const TensorOperand image_rf = tensor(AddressSpace::Rf, g.base + plan.layout.ifm,
                                        compact ? std::vector<std::uint64_t>{t.rows.count, plan.layer.wi, plan.layer.ci}
                                                : std::vector<std::uint64_t>{t.positions.count, plan.K},
                                        DType::Int8);
  const std::int64_t fetched = fetch_image(ctx, group, g, image_rf, index);
  preload_next(ctx, core, index);
  // With one register group the previous tile's results sit where this multiply writes: their
  // return goes first (queued behind this fetch all the same) and the multiply waits for it.
  if (sc.held_return && sc.held_group == g.index) release_return(ctx, sc, cs);

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
