#include "models/sparse_cluster/SparseIsoArea.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/engine/EngineArea.h"
#include "models/sparse_cluster/SparseClusterConfig.h"

namespace npusim {

namespace {

constexpr const char* kMatrix = "matrix";
constexpr std::uint32_t kLargestSize = 256;  // the limit of both /core/sparse/units and /multipliers

const char* sized_key(IsoAreaSizing sizing) { return sizing == IsoAreaSizing::Units ? "units" : "multipliers"; }

std::uint32_t power_of_two_at_least(std::uint32_t v) {
  std::uint32_t p = 1;
  while (p < v) p *= 2;
  return p;
}

// The cluster with the sized key at `size`; more multipliers than MIN ports would be refused,
// so the MINs grow with them (never below what the config wrote).
SparseClusterConfig at_size(const SparseClusterConfig& s, std::uint32_t size) {
  SparseClusterConfig c = s;
  if (s.iso_area == IsoAreaSizing::Units) {
    c.units = size;
  } else {
    c.multipliers = size;
    c.min_ports = std::max(s.min_ports, power_of_two_at_least(size));
  }
  return c;
}

// Whether `units` sub-maps make a compact grid: the partition cuts the map into the most
// square r x c grid with r x c = units (grid_for), and an aspect above 2 (62 = 2 x 31) gives
// thin strips whose halo is read again and again.
bool compact_grid(std::uint32_t units) {
  std::uint32_t r = 1;
  for (std::uint32_t d = 1; d * d <= units; ++d)
    if (units % d == 0) r = d;
  return units / r <= 2 * r;
}

// Unit counts must make a compact grid, and a power of two under a Benes memory interconnect
// (check_sparse); any multiplier count is allowed.
bool allowed(const SparseClusterConfig& s, std::uint32_t size) {
  if (s.iso_area != IsoAreaSizing::Units) return true;
  const bool benes = s.memory_interconnect == MemoryInterconnectKind::Benes;
  return compact_grid(size) && (!benes || (size & (size - 1)) == 0);
}

double cluster_area(CoreConfig core, const SparseClusterConfig& c, const EnergyTable& table) {
  core.block<SparseClusterConfig>(SparseClusterConfig::kSection) = c;
  return engine_area_mm2(SparseClusterConfig::kSection, core, table);
}

IsoAreaFit fit_of(const SparseClusterConfig& c, double target, double area) {
  return {target, area, c.units, c.multipliers, c.min_ports};
}

}  // namespace

// Area grows with either size, so the search walks up until the next size no longer fits.
IsoAreaFit fit_to_matrix_area(const CoreConfig& core, const EnergyTable& table, const SectionPlace& place) {
  const auto& s = core.block<SparseClusterConfig>(SparseClusterConfig::kSection);
  if (!core.has_engine(kMatrix))
    place.fail("iso_area", "sizes the cluster to its core's Wfold matrix unit, and this core lists no 'matrix' engine");
  const double target = engine_area_mm2(kMatrix, core, table);
  const char* key = sized_key(s.iso_area);
  IsoAreaFit best;
  std::uint32_t last = 0;
  for (std::uint32_t size = 1; size <= kLargestSize; ++size) {
    if (!allowed(s, size)) continue;
    const SparseClusterConfig c = at_size(s, size);
    const double area = cluster_area(core, c, table);
    if (area > target && last == 0)
      place.fail("iso_area", fmt::format("the area table cannot meet it: the matrix unit takes {:.4f} mm², and the "
                                         "cluster takes {:.4f} mm² already with {} = {} (energy table '{}'); "
                                         "shrink fm_buffer_bytes or weight_buffer_bytes",
                                         target, area, key, size, table.name));
    if (area > target) return best;
    best = fit_of(c, target, area);
    last = size;
  }
  place.fail("iso_area", fmt::format("the area table cannot meet it: at {} = {}, the largest allowed, the cluster "
                                     "takes {:.4f} mm² of the matrix unit's {:.4f} mm² (energy table '{}')",
                                     key, last, best.cluster_mm2, target, table.name));
}

void size_to_matrix_area(CoreConfig& core, const EnergyTable& table, const SectionPlace& place) {
  if (!core.has_engine(SparseClusterConfig::kSection)) return;
  auto& s = core.block<SparseClusterConfig>(SparseClusterConfig::kSection);
  if (s.iso_area == IsoAreaSizing::None) return;
  const IsoAreaFit fit = fit_to_matrix_area(core, table, place);
  s.units = fit.units;
  s.multipliers = fit.multipliers;
  s.min_ports = fit.min_ports;
}

std::string cluster_area_line(const CoreConfig& core, const EnergyTable& table) {
  const auto& s = core.block<SparseClusterConfig>(SparseClusterConfig::kSection);
  const double cluster = engine_area_mm2(SparseClusterConfig::kSection, core, table);
  std::string line = fmt::format("area: the cluster takes {:.4f} mm² (energy table '{}')", cluster, table.name);
  if (core.has_engine(kMatrix))
    line += fmt::format(", the matrix unit {:.4f} mm²", engine_area_mm2(kMatrix, core, table));
  if (s.iso_area != IsoAreaSizing::None)
    line += fmt::format("; {} sized to it (iso_area)", sized_key(s.iso_area));
  return line + "\n";
}

}  // namespace npusim
