#include "models/shader_core/Explain.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/fetch_ml/FetchMlConfig.h"
#include "models/matrix_unit/Explain.h"
#include "models/shader_core/ShaderMapping.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {
const CoreConfig& shader_kind(const HardwareConfig& cfg) {
  for (const CoreConfig* kind : cfg.kinds())
    if (kind->has_engine("shader")) return *kind;
  throw InputError("config", "/core/engines",
                   "this chip has no shader core; use a config with the fetch_ml and shader engines "
                   "(configs/gpu-shader.json) or --engine matrix");
}

double ratio(std::uint64_t a, std::uint64_t b) { return b ? double(a) / double(b) : 0.0; }

// explain lays out every register-group tile and walks each tile's datapath passes (lanes-wide
// groups of positions); past these it refuses the layer (about a third of a second at the limits).
constexpr std::uint64_t kExplainShaderTiles = std::uint64_t(1) << 20;
constexpr std::uint64_t kExplainShaderPasses = std::uint64_t(1) << 25;

ShaderConvPlan bounded_plan(const CoreConfig& core, const ShaderCoreConfig& sc, const ConvShape& layer) {
  ShaderConvPlan p = size_shader_tiles(sc, core.register_file.capacity_bytes, layer, false);
  const double tiles = shader_tile_count(p);
  check_explain_limit(tiles, kExplainShaderTiles, "register-group tiles");
  const double passes_per_tile = double((p.tile_positions + sc.lanes - 1) / sc.lanes);
  check_explain_limit(tiles * passes_per_tile, kExplainShaderPasses, "datapath passes (tiles x ceil(J / lanes))");
  return plan_shader_conv(sc, core.register_file.capacity_bytes, layer, false);
}
}  // namespace

std::string explain_shader_layer(const HardwareConfig& cfg, const ConvShape& layer) {
  validate_conv_shape(layer);
  const CoreConfig& core = shader_kind(cfg);
  const auto& sc = core.block<ShaderCoreConfig>(ShaderCoreConfig::kSection);
  const auto& fm = core.block<FetchMlConfig>(FetchMlConfig::kSection);
  const ShaderConvPlan p = bounded_plan(core, sc, layer);
  const std::uint64_t fetch_bytes = p.ifm_fetch_bytes + p.weight_fetch_bytes;
  const double fetch_cycles = fetch_bytes / fm.bytes_per_cycle;
  std::string s;
  s += fmt::format("layer {}\n", layer.to_string());
  s += fmt::format("shader core kind '{}': {} lanes x {} MACs, register file {} bytes in {} group(s) of {} bytes, "
                   "unroll site {}\n\n",
                   core.kind, sc.lanes, sc.macs_per_lane_per_cycle, core.register_file.capacity_bytes, p.groups,
                   p.group_bytes, json_name(p.site));
  s += fmt::format("matrix view (seed003 §2.7): [F x K] . [K x J] = [{} x {}] . [{} x {}] per image, {} image(s)\n",
                   layer.co, p.K, p.K, p.positions, layer.n);
  s += fmt::format("tile: {} positions x {} filters; {} tiles; group layout: weights @{}, image @{}, results @{}\n",
                   p.tile_positions, p.tile_filters, p.tiles.size(), p.layout.weights, p.layout.ifm,
                   p.layout.results);
  s += fmt::format("register-file footprint of the largest tile: {} bytes ({:.0f}% of a group)\n\n",
                   p.rf_footprint_bytes, 100.0 * ratio(p.rf_footprint_bytes, p.group_bytes));
  s += fmt::format("image bytes fetched      {:>14}   (the original image, halo rows refetched per tile)\n",
                   p.ifm_fetch_bytes);
  s += fmt::format("host-side im2col bytes   {:>14}   fetched / im2col = {:.3f}\n", p.naive_im2col_bytes,
                   ratio(p.ifm_fetch_bytes, p.naive_im2col_bytes));
  s += fmt::format("filter bytes fetched     {:>14}\n", p.weight_fetch_bytes);
  s += fmt::format("register-file writes     {:>14}   reads by the datapath {}\n", p.rf_write_bytes,
                   p.rf_read_bytes);
  s += fmt::format("results returned (int32) {:>14}\n\n", p.return_bytes);
  s += fmt::format("MACs {}  datapath cycles {}  lane utilization {:.1f}%\n", p.macs, p.mac_cycles,
                   100.0 * ratio(p.macs, p.mac_cycles * sc.lanes * sc.macs_per_lane_per_cycle));
  s += fmt::format("fetch at {} B/cycle: ~{:.0f} cycles; with {} group(s) the layer takes about {} = {:.0f} cycles\n",
                   fm.bytes_per_cycle, fetch_cycles, p.groups, p.groups == 2 ? "max(fetch, compute)" : "fetch + compute",
                   p.groups == 2 ? std::max(fetch_cycles, double(p.mac_cycles)) : fetch_cycles + p.mac_cycles);
  s += fmt::format("instruction slots: {} ml_set, {} fetch_ml, {} ml_matmul, {} ml_return = {}\n", p.set_instructions,
                   p.fetch_instructions, p.matmul_instructions, p.return_instructions, p.instruction_slots());
  s += "(estimates without memory contention; `npusim run` times the real traffic)\n";
  return s;
}

}  // namespace npusim
