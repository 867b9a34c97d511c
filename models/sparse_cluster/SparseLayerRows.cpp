#include "models/sparse_cluster/SparseLayerRows.h"

#include <algorithm>

#include <fmt/format.h>

namespace npusim {

void SparseUnitTally::add(const SparseUnitTally& o) {
  if (submaps == 0) regions = o.regions;
  submaps += o.submaps;
  remote_submaps += o.remote_submaps;
  nonzeros += o.nonzeros;
  parts += o.parts;
  busy += o.busy;
  done = std::max(done, o.done);
  stats.multipliers.add(o.stats.multipliers);
  stats.arbiter.collisions += o.stats.arbiter.collisions;
  stats.windows += o.stats.windows;
}

nlohmann::json SparseUnitTally::row(std::uint32_t unit, std::uint32_t multipliers) const {
  const double slots = double(stats.multiplier_slots(multipliers));
  return {{"unit", unit},
          {"submaps", submaps},
          {"remote_submaps", remote_submaps},
          {"regions", regions},
          {"input_nonzeros", nonzeros},
          {"rounds", stats.multipliers.rounds},
          {"products", stats.multipliers.products},
          {"multiplier_utilization", slots > 0 ? stats.multipliers.products / slots : 0.0},
          {"round_fill", stats.multipliers.round_fill},
          {"collisions", stats.arbiter.collisions},
          {"fifo_reissues", stats.multipliers.reissued},
          {"var_windows", stats.windows},
          {"buffer_parts", parts},
          {"busy_cycles", busy},
          {"done", done}};
}

void SparseLayerRows::add(SparseConvRun run) {
  const std::string key = fmt::format("{} {} {}", run.shape, run.ifm_nonzeros, run.weight_nonzeros);
  const auto [at, added] = index_.emplace(key, layers_.size());
  if (added) {
    layers_.push_back({std::move(run), 1});
    return;
  }
  Layer& layer = layers_[at->second];
  SparseConvRun& t = layer.total;
  ++layer.instructions;
  t.imbalance = std::max(t.imbalance, run.imbalance);
  t.partition_moves += run.partition_moves;
  t.dense_macs += run.dense_macs;
  t.useful_macs += run.useful_macs;
  t.cycles += run.cycles;
  t.dram_bytes_skipped += run.dram_bytes_skipped;
  for (std::size_t u = 0; u < t.units.size() && u < run.units.size(); ++u) t.units[u].add(run.units[u]);
}

nlohmann::json SparseLayerRows::rows(std::uint32_t core, std::uint32_t multipliers) const {
  nlohmann::json rows = nlohmann::json::array();
  for (const Layer& layer : layers_) {
    const SparseConvRun& t = layer.total;
    nlohmann::json units = nlohmann::json::array();
    for (std::uint32_t u = 0; u < t.units.size(); ++u)
      if (t.units[u].submaps) units.push_back(t.units[u].row(u, multipliers));
    rows.push_back({{"id", t.id},
                    {"instructions", layer.instructions},
                    {"core", core},
                    {"shape", t.shape},
                    {"ifm_nonzeros", t.ifm_nonzeros},
                    {"weight_nonzeros", t.weight_nonzeros},
                    {"grid", {t.grid_rows, t.grid_cols}},
                    {"imbalance", t.imbalance},
                    {"partition_moves", t.partition_moves},
                    {"dense_macs", t.dense_macs},
                    {"useful_macs", t.useful_macs},
                    {"cycles", t.cycles},
                    {"units", std::move(units)}});
    if (t.dram_bytes_skipped) rows.back()["dram_bytes_skipped"] = t.dram_bytes_skipped;
  }
  return rows;
}

}  // namespace npusim
