#include "apps/compiler/planning/SplitPlanner.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/planning/LayerPlacement.h"
#include "models/dma/DmaConfig.h"
#include "models/vector_unit/VectorUnitConfig.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

// The tensors of a layer as the tags see them: activations nhwc {n h w c}, weights
// nhwc {co kh kw ci} (depthwise {1 kh kw c}).
StaticTag static_tag(DataCategory category, std::vector<std::uint64_t> values) {
  return {category, DType::Int8, "nhwc", std::move(values)};
}

DynamicTag partial_dynamic(const StaticTag& s, std::uint32_t lanes) {
  DynamicTag d;
  d.dtype = DType::Int8;
  d.order = "nhwc";
  d.tiling = {{'c', lanes}};
  d.padding = {{'c', 0}};
  d.size_bytes = data_size(s.values, 1);
  return d;
}

std::vector<SplittableDim> splittable(const std::vector<StrategyDim>& dims, const StaticTag& s) {
  std::vector<SplittableDim> out;
  for (const auto& d : dims)
    if (!d.whole) out.push_back({d.dim, s.values[s.order.find(d.dim)], d.store, d.swap});
  return out;
}

}  // namespace

Workload one_layer(const Workload& w, const Layer& l) {
  Workload one;
  one.name = w.name + ":" + l.name;
  one.file = w.file;
  one.batch = w.batch;
  one.seed = w.seed;
  one.input = l.in;
  one.layers = {l};
  one.layers[0].inputs = {"input"};
  one.layers[0].split.clear();
  return one;
}

std::string shape_key(const Layer& l, ParallelMode m) {
  return fmt::format("{} {} {}x{}x{} {}x{}x{} k{}x{} s{}x{} d{} p{},{},{},{} g{} {} {} {}", layer_kind_name(l.kind),
                     l.weight_sparsity, l.in.h, l.in.w, l.in.c, l.out.h, l.out.w, l.out.c, l.kh, l.kw, l.sh, l.sw,
                     l.dilation, l.pad[0], l.pad[1], l.pad[2], l.pad[3], l.groups, l.relu, l.engine,
                     parallel_mode_name(m));
}

namespace {

// The --split choice that forces each mode, and the mode each choice but auto and model forces.
constexpr std::array<std::pair<ParallelMode, SplitChoice>, 5> kForced = {
    {{ParallelMode::Data, SplitChoice::Data},
     {ParallelMode::ModelCo, SplitChoice::ModelCo},
     {ParallelMode::ModelCi, SplitChoice::ModelCi},
     {ParallelMode::HybridCo, SplitChoice::HybridCo},
     {ParallelMode::HybridCi, SplitChoice::HybridCi}}};

ParallelMode forced_mode(SplitChoice c) {
  for (const auto& [mode, choice] : kForced)
    if (choice == c) return mode;
  return ParallelMode::Data;
}

// The layer's cores by cluster, in order (a hybrid mode's groups).
std::vector<std::vector<std::uint32_t>> by_cluster(const std::vector<std::uint32_t>& cores, std::uint32_t per_cluster) {
  std::vector<std::vector<std::uint32_t>> groups;
  for (std::uint32_t core : cores) {
    if (groups.empty() || groups.back().back() / per_cluster != core / per_cluster) groups.emplace_back();
    groups.back().push_back(core);
  }
  return groups;
}

}  // namespace

// The --split choice that forces mode `m`.
SplitChoice forced_split(ParallelMode m) {
  for (const auto& [mode, choice] : kForced)
    if (mode == m) return choice;
  return SplitChoice::Data;
}

SplitPlanner::SplitPlanner(const Workload& w, const HardwareConfig& hw, const SplitOptions& options)
    : w_(w), hw_(hw), options_(options), trials_(options.trials ? options.trials : std::make_shared<TrialCache>()) {
  db_ = load_split_strategies(options.strategy_file.empty() ? shipped_split_strategy_file(hw.chip.cluster_cache.enabled)
                                                            : options.strategy_file);
}

// The cores the §3.3 rule divides a mode's driving tensor over: every core of the layer,
// or for a hybrid mode those of one cluster (the model-parallel part).
std::uint32_t SplitPlanner::rule_cores(const LayerTiling& data, ParallelMode m) const {
  if (!is_hybrid(m)) return std::uint32_t(data.cores.size());
  return std::uint32_t(by_cluster(data.cores, hw_.chip.cores_per_cluster).front().size());
}

// The §3.3 rule on a mode's driving tensor (none when its entries are all whole).
std::optional<SplitDecision> SplitPlanner::rule(const Layer& l, const ModeStrategy& m, std::uint32_t cores) const {
  const StaticTag driver = splits_co(m.mode)
                               ? static_tag(DataCategory::InputWeight, {l.out.c, l.kh, l.kw, l.in.c / l.groups})
                               : static_tag(DataCategory::InputNeuron, {w_.batch, l.in.h, l.in.w, l.in.c});
  const auto dims = splittable(*m.of(driving_category(m.mode)), driver);
  if (dims.empty()) return std::nullopt;
  return decide_split(dims, hw_.chip.dram.channels, cores, db_.rounding);
}

// The driving tensor's split index (§3.3) gives the shares: piece k to one core, the
// pieces spread evenly over the layer's cores (so over its clusters too), starting at
// position `first`. A hybrid mode cuts the channels over each cluster's cores alike, and
// needs two clusters of equally many cores and more than one band or image to deal.
std::optional<ChannelShares> SplitPlanner::shares_for(const Layer& l, const LayerTiling& data, ParallelMode m,
                                                      std::size_t first) const {
  const ModeStrategy* strategy = db_.mode(layer_kind_name(l.kind), m);
  if (m == ParallelMode::Data || !strategy || !lowering(data.engine).splits_channels(l) || data.cores.size() < 2) return std::nullopt;
  const auto groups = is_hybrid(m) ? by_cluster(data.cores, hw_.chip.cores_per_cluster)
                                   : std::vector<std::vector<std::uint32_t>>{data.cores};
  if (is_hybrid(m) && (groups.size() < 2 || std::uint64_t(w_.batch) * l.out.h < 2 ||
                       std::any_of(groups.begin(), groups.end(), [&](const auto& g) { return g.size() != groups[0].size(); })))
    return std::nullopt;
  const auto d = rule(l, *strategy, rule_cores(data, m));
  const char channel = splits_co(m) ? 'n' : 'c';
  if (!d || d->dim != channel || d->index.pieces.size() < 2) return std::nullopt;
  ChannelShares shares;
  shares.mode = m;
  const std::size_t P = groups[0].size(), pieces = d->index.pieces.size();
  shares.group = std::uint32_t(is_hybrid(m) ? pieces : groups.size() * pieces);
  for (const auto& group : groups)
    for (std::size_t k = 0; k < pieces; ++k) {
      shares.cores.push_back(group[(k * P / pieces + (is_hybrid(m) ? 0 : first)) % P]);
      shares.ranges.emplace_back(std::uint32_t(d->index.pieces[k].first), std::uint32_t(d->index.pieces[k].second + 1));
    }
  return shares;
}

// Cycles the layer would take split this way: the slowest of the busiest core's
// compute (its lowering's cycles per band times its bands and blocks), the DRAM bytes of all cores over
// the channels the working cores reach, one core's share over its DMA (or, with
// separate memories, over its cluster's channels), and, for model-ci, the reduction
// work on the core that finishes every band.
double SplitPlanner::estimate(const Layer& l, const LayerTiling& t, double band_cycles) const {
  const CoreConfig& core = t.kind(hw_);
  const ChipConfig& chip = hw_.chip;
  const double tiles = double(w_.batch) * t.bands;
  const bool data = t.split == ParallelMode::Data;
  const double active = data ? std::min(double(t.cores.size()), tiles) : double(t.cores.size());
  const double runs = is_hybrid(t.split) ? std::min(double(t.groups()), tiles) : 1;  // clusters with bands
  const double bands_per_core = data ? std::ceil(tiles / active) : std::ceil(tiles / runs);
  const double compute = band_cycles * bands_per_core * t.co_blocks;
  const double in = double(w_.batch) * t.input_rows_read(l) * l.in.w * l.in.c;
  const double weights = double(l.out.c) * t.kernel_h * t.kernel_w * (l.in.c / l.groups);
  const double out = double(w_.batch) * l.out.elements();
  double bytes = in + weights + out;
  if (data) bytes += weights * (active - 1);
  if (is_hybrid(t.split)) bytes += weights * (runs - 1);  // every cluster reads every weight once
  if (t.split == ParallelMode::ModelCo) bytes += in * (active - 1);
  // With separate memories a cluster's cores read its own channels; else every channel.
  const bool separate = chip.dram.interleave_bytes == 0 && chip.dram.channels > 1;
  std::vector<std::uint32_t> clusters;
  for (std::size_t k = 0; k < std::size_t(active); ++k)
    if (std::find(clusters.begin(), clusters.end(), t.cores[k] / chip.cores_per_cluster) == clusters.end())
      clusters.push_back(t.cores[k] / chip.cores_per_cluster);
  const double per_cluster = std::max(1.0, double(chip.dram.channels) / chip.clusters) * chip.dram.bytes_per_cycle;
  const double reach = separate ? std::min(double(chip.dram.channels) * chip.dram.bytes_per_cycle,
                                           per_cluster * double(clusters.size()))
                                : double(chip.dram.channels) * chip.dram.bytes_per_cycle;
  const double dram = bytes / reach;
  const double dma_rate = core.block<DmaConfig>("load_dma").bytes_per_cycle;
  const double dma = bytes / active / (separate ? std::min(dma_rate, per_cluster) : dma_rate);
  double reduce = 0;
  if (splits_ci(t.split)) {
    const double partial = double(t.acc_bytes), levels = std::ceil(std::log2(std::max(2.0, double(t.group))));
    const double vector = core.block<VectorUnitConfig>(VectorUnitConfig::kSection).bytes_per_cycle;
    reduce = std::ceil(tiles / runs) * t.co_blocks * (levels * (partial / dma_rate + 3 * partial / vector) + 1.25 * partial / vector);
  }
  return std::max({compute, dram, dma, reduce});
}

// The tags of the layer's tensors for its mode (S14-S16), printed in the report.
LayerSplit SplitPlanner::tag(const Layer& l, const LayerTiling& t, std::uint32_t out_degree) const {
  LayerSplit s;
  s.mode = t.split;
  const ModeStrategy* strategy = db_.mode(layer_kind_name(l.kind), t.split);
  if (!strategy) return s;
  const std::uint32_t C = hw_.chip.dram.channels;
  const std::uint32_t lanes = lowering(t.engine).tag_lanes(t);
  // A hybrid mode cuts its driving tensor over one cluster's cores and the others over the clusters.
  auto cores_for = [&](DataCategory entries) {
    if (!is_hybrid(t.split)) return std::uint32_t(t.cores.size());
    return std::uint32_t(entries == driving_category(t.split) ? t.group : t.groups());
  };
  // A hidden neuron is the output of one layer and the input of the next: here it takes
  // the entries of the role it plays (`entries`).
  auto add = [&](const std::string& name, DataCategory category, std::vector<std::uint64_t> values,
                 DataCategory entries) {
    const auto* dims = strategy->of(entries);
    if (!dims) return;
    const StaticTag st = static_tag(category, std::move(values));
    s.tags.push_back({st, complete_tag(st, partial_dynamic(st, lanes), *dims, C, cores_for(entries), db_.rounding)});
    s.tag_names.push_back(name);
  };
  const std::vector<std::uint64_t> in = {w_.batch, l.in.h, l.in.w, l.in.c};
  for (const auto& name : l.inputs)
    add(name, name == "input" ? DataCategory::InputNeuron : DataCategory::HiddenNeuron, in, DataCategory::InputNeuron);
  if (w_.independent_layers) add(l.name + ".input", DataCategory::InputNeuron, in, DataCategory::InputNeuron);
  if (l.has_weights())
    add(l.name + ".weights", DataCategory::InputWeight,
        l.kind == LayerKind::Depthwise ? std::vector<std::uint64_t>{1, l.kh, l.kw, l.in.c}
                                       : std::vector<std::uint64_t>{l.out.c, l.kh, l.kw, l.in.c / l.groups},
        DataCategory::InputWeight);
  add(l.name, out_degree ? DataCategory::HiddenNeuron : DataCategory::OutputNeuron,
      {w_.batch, l.out.h, l.out.w, l.out.c}, DataCategory::OutputNeuron);
  return s;
}

// The modes the layer can take (data always), each tiled for it; `rule_choice` is the
// first mode the §3.3 rule on its driving tensor applies to (the seed's choice).
std::vector<SplitPlanner::Candidate> SplitPlanner::candidates(const Layer& l, std::size_t index,
                                                              std::optional<ParallelMode>& rule_choice,
                                                              bool input_chained) const {
  // Model-ci's first core finishes every band and stores the result: take turns over the
  // clusters, layer by layer, so no one memory takes every output.
  const std::size_t first = std::size_t(hw_.chip.cores_per_cluster) * (index % hw_.chip.clusters);
  const LayerTiling data = tile_layer(w_, l, hw_, nullptr, input_chained);
  std::vector<Candidate> found;
  const auto& allowed = options_.modes;
  const bool restricted = !allowed.empty() && choice_for(l) == SplitChoice::Auto;
  for (const ModeStrategy& m : db_.modes(layer_kind_name(l.kind))) {
    if (restricted && std::find(allowed.begin(), allowed.end(), m.mode) == allowed.end()) continue;
    const auto d = rule(l, m, rule_cores(data, m.mode));
    const bool applies = d && !d->fallback && d->index.pieces.size() >= 2;
    if (m.mode == ParallelMode::Data) {
      found.push_back({m.mode, data, 0.0, std::nullopt});
    } else {
      const auto shares = shares_for(l, data, m.mode, first);
      if (!shares) continue;
      try {
        found.push_back({m.mode, tile_layer(w_, l, hw_, &*shares), 0.0, std::nullopt});
      } catch (const InputError&) {
        continue;  // the share does not fit this core's buffers: not a candidate
      }
    }
    if (!rule_choice && applies) rule_choice = m.mode;
  }
  // Data parallelism is always possible, listed or not.
  if (std::none_of(found.begin(), found.end(), [](const Candidate& c) { return c.mode == ParallelMode::Data; }))
    found.insert(found.begin(), {ParallelMode::Data, data, 0.0, std::nullopt});
  // Modes are compared only where the lowering estimates them and more than one core shares the layer.
  for (Candidate& c : found) {
    const std::optional<double> cycles = lowering(c.tiling.engine).band_cycles(c.tiling);
    c.estimate = cycles && data.cores.size() > 1 ? estimate(l, c.tiling, *cycles) : 0.0;
  }
  return found;
}

// Auto and "model" compare candidates by their trials when there are any: every
// candidate runs alone on the chip with its mode forced, so the choice follows the same
// timing rules as the run. Layers with two inputs, or one core, keep the estimate.
void SplitPlanner::simulate(const Layer& l, std::vector<Candidate>& found) const {
  if (!options_.trial || found.size() < 2 || l.inputs.size() > 1 || found[0].tiling.cores.size() < 2) return;
  const Workload one = one_layer(w_, l);
  for (Candidate& c : found) {
    const std::string key = shape_key(l, c.mode);
    auto it = trials_->find(key);
    if (it == trials_->end()) {
      SplitOptions forced_options;
      forced_options.choice = forced_split(c.mode);
      forced_options.strategy_file = options_.strategy_file;
      // A forced load order holds in the trials too; auto's are weight-stationary.
      if (!options_.load_order.automatic) forced_options.load_order = options_.load_order;
      it = trials_->emplace(key, options_.trial(one, hw_, forced_options)).first;
    }
    c.simulated = it->second;
  }
}

// The candidate with the fewest cycles: simulated when every candidate was, else estimated;
// `first` (the rule's choice) wins ties.
std::size_t SplitPlanner::fastest(const std::vector<Candidate>& candidates, std::size_t first, std::string& why) const {
  const bool simulated = std::all_of(candidates.begin(), candidates.end(), [](const Candidate& c) { return c.simulated; });
  auto cost = [&](std::size_t i) { return simulated ? double(*candidates[i].simulated) : candidates[i].estimate; };
  std::size_t pick = first;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (cost(i) < cost(pick)) pick = i;
  if (candidates.size() == 1) {
    why = "the only mode this layer allows";
  } else if (simulated) {
    why = pick == first ? "the rule's choice, and no mode simulates faster alone"
                        : "simulates faster alone than the rule's choice";
  } else {
    why = pick == first ? "the rule's choice, and no mode is estimated faster" : "estimated faster than the rule's choice";
  }
  return pick;
}

// --split, else the layer's own "split", else the workload's, else auto: the rule's
// choice unless another mode is faster (simulated, or else estimated).
std::size_t SplitPlanner::pick(const Layer& l, const std::vector<Candidate>& candidates,
                               std::optional<ParallelMode> rule_choice, std::string& why) const {
  auto find = [&](ParallelMode m) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].mode == m) return i;
    return std::nullopt;
  };
  const SplitChoice choice = choice_for(l);
  if (choice == SplitChoice::Auto) return fastest(candidates, rule_choice && find(*rule_choice) ? *find(*rule_choice) : 0, why);
  std::optional<std::size_t> pick;
  if (choice == SplitChoice::Model) {
    std::vector<Candidate> model;
    for (ParallelMode m : {ParallelMode::ModelCo, ParallelMode::ModelCi})
      if (auto i = find(m)) model.push_back(candidates[*i]);
    std::string ignored;
    if (!model.empty()) pick = find(model[fastest(model, 0, ignored)].mode);
  } else {
    pick = find(forced_mode(choice));
  }
  const std::string by = options_.choice ? "--split" : !l.split.empty() ? "the layer's \"split\"" : "the workload's \"split\"";
  why = pick ? "forced by " + by : "forced by " + by + ", but this layer cannot split that way";
  return pick ? *pick : find(ParallelMode::Data).value_or(0);
}

SplitChoice SplitPlanner::choice_for(const Layer& l) const {
  return options_.choice.value_or(parse_split_choice(l.split).value_or(parse_split_choice(w_.split).value_or(SplitChoice::Auto)));
}

std::pair<LayerTiling, LayerSplit> SplitPlanner::plan(const Layer& l, std::uint32_t out_degree, std::size_t index,
                                                      bool input_chained) const {
  std::optional<ParallelMode> rule_choice;
  std::vector<Candidate> found = candidates(l, index, rule_choice, input_chained);
  const SplitChoice choice = choice_for(l);
  if (choice == SplitChoice::Auto || choice == SplitChoice::Model) simulate(l, found);
  std::string why;
  const std::size_t chosen = pick(l, found, rule_choice, why);
  LayerSplit s = tag(l, found[chosen].tiling, out_degree);
  s.rule_choice = rule_choice;
  for (const Candidate& c : found) {
    s.estimates.emplace_back(c.mode, c.estimate);
    if (c.simulated) s.simulated.emplace_back(c.mode, *c.simulated);
  }
  s.reason = why;
  return {std::move(found[chosen].tiling), std::move(s)};
}

}  // namespace npusim
