#include "apps/simulation/layer_report/LayerReport.h"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "apps/compiler/planning/LayerPlacement.h"
#include "apps/compiler/tiling/LoadOrder.h"
#include "apps/simulation/layer_report/LayerEnergy.h"
#include "models/engine/EngineRegistry.h"
#include "sim/config/BankedDramChecks.h"

namespace npusim {

namespace {

// Inputs, weights and output once each, but only those in DRAM: an activation kept in the
// cluster caches never crosses it (the inputs' share by how many of them are kept).
std::uint64_t dram_compulsory_bytes(const CompiledLayer& c) {
  std::size_t kept = 0;
  for (const DramTensor& t : c.inputs) kept += t.in_caches();
  const std::uint64_t inputs = c.inputs.empty() ? c.input_bytes : c.input_bytes * (c.inputs.size() - kept) / c.inputs.size();
  return inputs + c.weight_bytes + (c.output.in_caches() ? 0 : c.output_bytes);
}

}  // namespace

LayerReport::LayerReport(const TraceEmitter& emitter, const HardwareConfig& hw)
    : emitter_(emitter), hw_(hw), lowerings_(lowerings()) {
  // The chip's peak: each core's engines at full use, as each engine states its own.
  auto peak_of = [&](const std::vector<std::uint32_t>& cores) {
    double peak = 0;
    for (std::uint32_t i : cores) peak += engine_registry().peak_macs_per_cycle(hw.core_of(i));
    return peak;
  };
  std::vector<std::uint32_t> all(hw.chip.cores());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  peak_macs_ = peak_of(all);
  dram_bpc_ = hw.chip.dram.channels * channel_peak_bytes_per_cycle(hw.chip.dram, hw.chip.clock_mhz);
  for (const auto& c : emitter.layers()) {
    LayerRow row;
    row.name = c.layer.name;
    row.kind = layer_kind_name(c.layer.kind);
    row.macs = c.layer.macs() * emitter.workload().batch;
    row.engine = c.tiling.engine;
    row.core_kind = c.tiling.kind(hw).kind;
    row.cores = std::uint32_t(c.tiling.cores.size());
    row.compulsory_bytes = dram_compulsory_bytes(c);
    // Only the layer's own cores compute it; cores without a MAC engine leave the bound to memory.
    const double layer_peak = peak_of(c.tiling.cores);
    row.compute_cycles = layer_peak > 0 ? row.macs / layer_peak : 0;
    row.dram_cycles = row.compulsory_bytes / dram_bpc_;
    rows_.push_back(row);
  }
}

LayerBound LayerReport::bound(std::size_t i) const {
  return layer_bound(rows_[i].compute_cycles, rows_[i].dram_cycles, emitter_.traffic(i), hw_);
}

void LayerReport::record(const InstructionRecord& r) {
  LayerRow& row = rows_[emitter_.layer_of(r.id)];
  row.first_start = row.instructions ? std::min(row.first_start, r.start) : r.start;
  row.last_end = std::max(row.last_end, r.end);
  ++row.instructions;
  // Load and store DRAM bytes come from the compiler's count (exchanges may use the caches);
  // each lowering counts what its own section reports.
  const bool in_reduction = emitter_.in_reduction(r.id);
  for (const Lowering* l : lowerings_) l->record(r, in_reduction, row.counters);
}

namespace {

// How the layer's cores shared it (seed002): the mode and why, the tags of its tensors,
// the partial sums exchanged per level, the time in reductions, and the DRAM bytes each
// cluster moved to its own memory and to the others.
nlohmann::json split_section(const CompiledLayer& c, const LayerTraffic& t, const std::string& sharing) {
  const LayerSplit& s = c.split;
  nlohmann::json estimates = nlohmann::json::object();
  for (const auto& [mode, cycles] : s.estimates) estimates[parallel_mode_name(mode)] = cycles;
  nlohmann::json tags = nlohmann::json::object();
  for (std::size_t i = 0; i < s.tags.size(); ++i) tags[s.tag_names[i]] = to_string(s.tags[i]);
  nlohmann::json clusters = nlohmann::json::array();
  for (std::size_t k = 0; k < t.dram_local.size(); ++k)
    clusters.push_back({{"cluster", k}, {"local_bytes", t.dram_local[k]}, {"remote_bytes", t.dram_remote[k]}});
  nlohmann::json channels = nlohmann::json::array();
  for (std::size_t k = 0; k < t.dram_channel.size(); ++k) channels.push_back(t.dram_channel[k]);
  nlohmann::json j = {{"mode", parallel_mode_name(s.mode)},
                      {"rule_choice", s.rule_choice ? parallel_mode_name(*s.rule_choice) : "none"},
                      {"reason", s.reason},
                      {"estimated_cycles", estimates},
                      {"cores", c.tiling.cores},
                      {"tags", tags},
                      {"exchange_bytes",
                       {{"nram", t.exchange_nram},
                        {"cluster_cache", t.exchange_cache},
                        {"remote_cache", t.exchange_remote_cache},
                        {"dram", t.exchange_dram}}},
                      {"dram_bytes_by_cluster", clusters},
                      {"dram_bytes_by_channel", channels}};
  // Bytes through each cluster cache's port (partial sums, kept activations), when the chip has caches.
  if (std::any_of(t.cache_port.begin(), t.cache_port.end(), [](std::uint64_t b) { return b > 0; }))
    j["cache_bytes_by_cluster"] = t.cache_port;
  // Auto's trials: each candidate's cycles run alone on the chip, which decided the mode.
  if (!s.simulated.empty()) {
    nlohmann::json simulated = nlohmann::json::object();
    for (const auto& [mode, cycles] : s.simulated) simulated[parallel_mode_name(mode)] = cycles;
    j["simulated_cycles"] = simulated;
  }
  if (!c.tiling.shares.empty()) j["shares"] = c.tiling.shares;
  if (c.tiling.cores.size() > 1)  // one core shares nothing (and its report stays as it was)
    j["shared_reads"] = {{"weights", sharing},
                         {"multicast_cluster_bytes", t.multicast_cluster},
                         {"multicast_core_bytes", t.multicast_core}};
  return j;
}

}  // namespace

nlohmann::json LayerReport::to_json(bool with_rows) const {
  nlohmann::json table = {{"peak_macs_per_cycle", peak_macs_}, {"dram_bytes_per_cycle", dram_bpc_}};
  if (with_rows) table["rows"] = rows_json();
  return table;
}

nlohmann::json LayerReport::rows_json() const {
  nlohmann::json layers = nlohmann::json::array();
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const LayerRow& r = rows_[i];
    const CompiledLayer& c = emitter_.layers()[i];
    const LayerTraffic& traffic = emitter_.traffic(i);
    const double cycles = double(r.cycles());
    const LayerBound b = bound(i);
    nlohmann::json resources = nlohmann::json::array();
    for (const ResourceLoad& load : b.busiest) resources.push_back({{"resource", load.resource}, {"cycles", load.cycles}});
    std::uint64_t dram_bytes = r.counters.dram_bytes;
    for (std::size_t k = 0; k < traffic.dram_local.size(); ++k) dram_bytes += traffic.dram_local[k] + traffic.dram_remote[k];
    layers.push_back(nlohmann::json{{"name", r.name},
                      {"kind", r.kind},
                      {"engine", r.engine},
                      {"core_kind", r.core_kind},
                      {"cores", r.cores},
                      {"instructions", r.instructions},
                      {"start_cycle", r.first_start},
                      {"end_cycle", r.last_end},
                      {"cycles", r.cycles()},
                      {"macs", r.macs},
                      {"mac_utilization", cycles > 0 ? r.macs / (cycles * peak_macs_) : 0.0},
                      {"dram_bytes", dram_bytes},
                      {"compulsory_dram_bytes", r.compulsory_bytes},
                      {"roofline_bound_cycles", b.limit.cycles},
                      {"roofline_bound", b.limit.resource},
                      {"bound_by_resource", resources},
                      {"achieved_fraction", cycles > 0 ? b.limit.cycles / cycles : 0.0},
                      {"weight_sparsity", c.layer.weight_sparsity},
                      {"activation_sparsity", c.layer.activation_sparsity},
                      {"tiling",
                       {{"rows_per_band", c.tiling.rows},
                        {"bands_per_image", c.tiling.bands},
                        {"nram_buffers", c.tiling.buffers},
                        {"co_block", c.tiling.co_block},
                        {"co_blocks", c.tiling.co_blocks}}}});
    if (c.layer.onnx)
      layers.back()["onnx"] = {{"value", c.layer.onnx->value},
                               {"scale_exponent", c.layer.onnx->scale_exponent},
                               {"before_scale_and_bias", c.layer.onnx->before_affine}};
    if (c.layer.onnx && !c.layer.onnx->normalized.empty()) layers.back()["onnx"]["normalizes"] = c.layer.onnx->normalized;
    layers.back()["split"] = split_section(c, traffic, emitter_.weight_sharing(c));
    if (const auto* placement = c.tiling.engine_plan<CostPlacement>(kCostPlacementNote))
      layers.back()["placement"] = cost_placement_json(*placement);
    if (const LoadOrderPlan* order = load_order_plan(c.tiling)) layers.back()["load_order"] = load_order_json(*order);
    // The engines' own sections, after the common fields they read.
    for (const Lowering* l : lowerings_) l->report(c.layer, c.tiling, r.counters, layers.back());
  }
  return layers;
}

void LayerReport::print_table(std::ostream& os, const RunStats& stats) const {
  const bool priced = stats.energy.priced;
  const std::vector<ClassEnergy> energy = priced ? layer_energy(rows_, stats.energy) : std::vector<ClassEnergy>();
  auto energy_uj = [](double pj) { return fmt::format(" {:>11.3f}", pj * 1e-6); };
  auto layer_pj = [](const ClassEnergy& e) {
    double pj = 0;
    for (const auto& [cls, split] : e) pj += split.total_pj();
    return pj;
  };
  os << fmt::format("\n{:<24} {:<9} {:<7} {:<9} {:>12} {:>14} {:>7} {:>12} {:<12} {:>8}{}\n", "layer", "kind", "engine",
                    "split", "cycles", "MACs", "util", "bound", "by", "achieved", priced ? "   energy uJ" : "");
  std::uint64_t macs = 0;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const LayerRow& r = rows_[i];
    const double cycles = double(r.cycles());
    const ResourceLoad limit = bound(i).limit;
    macs += r.macs;
    os << fmt::format("{:<24} {:<9} {:<7} {:<9} {:>12} {:>14} {:>6.1f}% {:>12.0f} {:<12} {:>7.1f}%{}\n", r.name, r.kind,
                      r.engine, parallel_mode_name(emitter_.layers()[i].tiling.split), r.cycles(),
                      r.macs, cycles > 0 ? 100.0 * r.macs / (cycles * peak_macs_) : 0.0, limit.cycles, limit.resource,
                      cycles > 0 ? 100.0 * limit.cycles / cycles : 0.0, priced ? energy_uj(layer_pj(energy[i])) : "");
  }
  const double total = double(stats.total_cycles);
  os << fmt::format("{:<24} {:<9} {:<7} {:<9} {:>12} {:>14} {:>6.1f}% {:>12} {:<12} {:>8}{}\n", "total", "", "", "",
                    stats.total_cycles, macs, total > 0 ? 100.0 * macs / (total * peak_macs_) : 0.0, "", "", "",
                    priced ? energy_uj(stats.energy.total().total_pj()) : "");
}

}  // namespace npusim
