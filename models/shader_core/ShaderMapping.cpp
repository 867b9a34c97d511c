#include "models/shader_core/ShaderMapping.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

namespace {

constexpr std::uint64_t kAlign = 64;
std::uint64_t aligned(std::uint64_t b) { return (b + kAlign - 1) / kAlign * kAlign; }
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Image rows under `out_rows` whole output rows (the most a tile of them reads).
std::uint64_t rows_under(const ConvShape& l, std::uint64_t out_rows) {
  return std::min<std::uint64_t>(l.hi, (out_rows - 1) * l.sh + l.kh);
}

struct Sizing {
  const ShaderConvPlan& plan;
  std::uint64_t weight_bytes(std::uint64_t filters) const {
    return aligned(filters * plan.K * plan.layer.element_bytes);
  }
  // Positions J: whole output rows when J >= wo, else a piece of one row.
  std::uint64_t ifm_bytes(std::uint64_t J) const {
    const ConvShape& l = plan.layer;
    if (plan.site == UnrollSite::FetchToRf) return aligned(J * plan.K * l.element_bytes);
    const std::uint64_t out_rows = std::max<std::uint64_t>(1, ceil_div(J, l.wo()));
    return aligned(rows_under(l, out_rows) * l.wi * l.ci * l.element_bytes);
  }
  std::uint64_t bytes(std::uint64_t J, std::uint64_t F) const {
    return weight_bytes(F) + ifm_bytes(J) + aligned(J * F * plan.result_bytes);
  }
  // Largest J that fits with F filters: whole rows first, then pieces of a row; 0 if none.
  std::uint64_t largest_positions(std::uint64_t F) const {
    const std::uint64_t wo = plan.layer.wo(), ho = plan.layer.ho();
    std::uint64_t lo = 0, hi = ho;
    while (lo < hi) {
      const std::uint64_t mid = (lo + hi + 1) / 2;
      if (bytes(mid * wo, F) <= plan.group_bytes) lo = mid; else hi = mid - 1;
    }
    if (lo > 0) return lo * wo;
    lo = 0, hi = wo;
    while (lo < hi) {
      const std::uint64_t mid = (lo + hi + 1) / 2;
      if (bytes(mid, F) <= plan.group_bytes) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
};

void choose_tile(ShaderConvPlan& plan) {
  const Sizing size{plan};
  const std::uint64_t per_filter = plan.K * plan.layer.element_bytes;
  std::uint64_t F = std::min<std::uint64_t>(plan.layer.co, std::max<std::uint64_t>(1, plan.group_bytes / 2 / per_filter));
  std::uint64_t J = 0;
  for (; F >= 1; F = F / 2) {
    J = size.largest_positions(F);
    if (J > 0 || F == 1) break;
  }
  if (J == 0)
    throw InputError("config", "/core/register_file/capacity_bytes",
                     fmt::format("a register group of {} bytes is too small for one tile of layer {}: one output of "
                                 "one filter needs {} bytes (weights {}, image {}, result {}); raise "
                                 "/core/register_file/capacity_bytes or set /core/shader/register_groups to 1",
                                 plan.group_bytes, plan.layer.to_string(), size.bytes(1, 1), size.weight_bytes(1),
                                 size.ifm_bytes(1), aligned(plan.result_bytes)));
  // Even out the row pieces, so the last tile of a row is not a sliver.
  const std::uint64_t wo = plan.layer.wo();
  if (J < wo) J = ceil_div(wo, ceil_div(wo, J));
  plan.tile_positions = J;
  plan.tile_filters = std::uint32_t(F);
  plan.layout.weights = 0;
  plan.layout.ifm = size.weight_bytes(F);
  plan.layout.results = plan.layout.ifm + size.ifm_bytes(J);
}

void lay_out_tiles(const ShaderCoreConfig& cfg, ShaderConvPlan& plan) {
  const ConvShape& l = plan.layer;
  const std::uint64_t eb = l.element_bytes;
  std::vector<std::int64_t> held(plan.groups, -1);  // filter block per group
  for (std::uint32_t f0 = 0; f0 < l.co; f0 += plan.tile_filters)
    for (std::uint32_t image = 0; image < l.n; ++image)
      for (const PositionRange& run : AddressGenerator::position_runs(l, plan.tile_positions, image)) {
        ShaderTile t;
        t.positions = run;
        t.first_filter = f0;
        t.filters = std::min(plan.tile_filters, l.co - f0);
        t.group = std::uint32_t(plan.tiles.size() % plan.groups);
        t.fetch_weights = held[t.group] != std::int64_t(f0);
        held[t.group] = f0;
        t.rows = AddressGenerator::input_rows(l, run);
        const bool compact = plan.site == UnrollSite::RfRead;
        plan.macs += run.count * t.filters * plan.K;
        plan.mac_cycles += shader_tile_cycles(cfg, run.count, t.filters, plan.K);
        plan.ifm_fetch_bytes += std::uint64_t(t.rows.count) * l.wi * l.ci * eb;
        const std::uint64_t weights = t.fetch_weights ? t.filters * plan.K * eb : 0;
        plan.weight_fetch_bytes += weights;
        plan.rf_write_bytes += plan.ifm_tile_bytes(t) + weights;
        plan.rf_read_bytes += shader_tile_rf_reads(cfg, l, run, t.filters, compact);
        plan.return_bytes += run.count * t.filters * plan.result_bytes;
        plan.rf_footprint_bytes = std::max(plan.rf_footprint_bytes, t.filters * plan.K * eb + plan.ifm_tile_bytes(t) +
                                                                        run.count * t.filters * plan.result_bytes);
        plan.fetch_instructions += 1 + (t.fetch_weights ? 1 : 0);
        plan.tiles.push_back(t);
      }
  plan.matmul_instructions = plan.return_instructions = plan.tiles.size();
}

}  // namespace

std::uint64_t ShaderConvPlan::ifm_tile_bytes(const ShaderTile& t) const {
  if (site == UnrollSite::FetchToRf) return t.positions.count * K * layer.element_bytes;
  return std::uint64_t(t.rows.count) * layer.wi * layer.ci * layer.element_bytes;
}

std::uint64_t shader_tile_cycles(const ShaderCoreConfig& cfg, std::uint64_t positions, std::uint64_t filters,
                                 std::uint64_t K) {
  return ceil_div(positions, cfg.lanes) * filters * ceil_div(K, cfg.macs_per_lane_per_cycle) + cfg.pipeline_latency;
}

std::uint64_t shader_tile_rf_reads(const ShaderCoreConfig& cfg, const ConvShape& layer, const PositionRange& p,
                                   std::uint64_t filters, bool compact) {
  const std::uint64_t eb = layer.element_bytes, K = std::uint64_t(layer.kh) * layer.kw * layer.ci;
  const std::uint64_t passes_per_filter = ceil_div(p.count, cfg.lanes);
  std::uint64_t ifm = 0;
  if (!compact) {
    ifm = p.count * K;
  } else {
    for (std::uint64_t b = 0; b < passes_per_filter; ++b) {
      const std::uint64_t first = p.first + b * cfg.lanes;
      ifm += AddressGenerator::window_union_elements(
          layer, {p.image, first, std::min<std::uint64_t>(cfg.lanes, p.first + p.count - first)});
    }
  }
  return filters * (passes_per_filter * K + ifm) * eb;
}

ShaderConvPlan size_shader_tiles(const ShaderCoreConfig& cfg, std::uint64_t register_file_bytes,
                                 const ConvShape& layer, bool requantized) {
  ShaderConvPlan plan;
  plan.layer = layer;
  plan.site = cfg.unroll_site;
  plan.groups = cfg.register_groups;
  plan.group_bytes = register_file_bytes / plan.groups / kAlign * kAlign;
  plan.K = std::uint64_t(layer.kh) * layer.kw * layer.ci;
  plan.positions = std::uint64_t(layer.ho()) * layer.wo();
  plan.result_bytes = requantized ? 1 : 4;
  plan.naive_im2col_bytes = plan.positions * layer.n * plan.K * layer.element_bytes;
  plan.set_instructions = kShaderSetInstructions;
  choose_tile(plan);
  return plan;
}

double shader_tile_count(const ShaderConvPlan& plan) {
  const ConvShape& l = plan.layer;
  const std::uint64_t wo = l.wo(), J = plan.tile_positions;
  const double runs = J >= wo ? double(ceil_div(plan.positions, J)) : double(l.ho()) * ceil_div(wo, J);
  return double(ceil_div(l.co, plan.tile_filters)) * l.n * runs;
}

ShaderConvPlan plan_shader_conv(const ShaderCoreConfig& cfg, std::uint64_t register_file_bytes,
                                const ConvShape& layer, bool requantized) {
  ShaderConvPlan plan = size_shader_tiles(cfg, register_file_bytes, layer, requantized);
  lay_out_tiles(cfg, plan);
  return plan;
}

}  // namespace npusim
