#include "apps/compiler/emit/Lowering.h"

#include "apps/compiler/emit/EmitContext.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace npusim {
namespace {

// Function-local so registration from other translation units' static initialisers
// finds it constructed.
std::map<std::string, std::unique_ptr<Lowering>>& registry() {
  static std::map<std::string, std::unique_ptr<Lowering>> lowerings;
  return lowerings;
}

}  // namespace

std::unique_ptr<LoweringState> Lowering::make_state(const EmitContext&) const { return nullptr; }

std::optional<double> Lowering::layer_cycles(const Workload& w, const Layer&, const LayerTiling& t,
                                            const HardwareConfig&) const {
  const std::optional<double> band = band_cycles(t);
  if (!band) return std::nullopt;
  const double cores = double(std::max<std::size_t>(1, t.cores.size()));
  return *band * std::ceil(double(t.tiles(w.batch)) / cores) * t.co_blocks;
}

std::uint64_t Lowering::tiles(const EmitContext& ctx) const { return ctx.layer().tiling.tiles(ctx.workload().batch); }

std::uint32_t Lowering::passes(const EmitContext& ctx) const { return ctx.layer().tiling.co_blocks; }

bool register_lowering(std::unique_ptr<Lowering> lowering) {
  const std::string name = lowering->name();
  if (!registry().emplace(name, std::move(lowering)).second)
    throw std::logic_error("two lowerings registered as '" + name + "'");
  return true;
}

const Lowering* find_lowering(const std::string& name) {
  const auto it = registry().find(name);
  return it == registry().end() ? nullptr : it->second.get();
}

const Lowering& lowering(const std::string& name) {
  if (const Lowering* found = find_lowering(name)) return *found;
  throw std::logic_error("no lowering registered as '" + name + "'");
}

std::vector<const Lowering*> lowerings() {
  std::vector<const Lowering*> all;
  for (const auto& [name, l] : registry()) all.push_back(l.get());
  std::stable_sort(all.begin(), all.end(), [](const Lowering* a, const Lowering* b) { return a->rank() < b->rank(); });
  return all;
}

}  // namespace npusim
