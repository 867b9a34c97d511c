#include "apps/tags/SplitStrategy.h"

#include <algorithm>
#include <array>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "SourcePaths.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/StrictJson.h"

namespace npusim {

namespace {

using Json = nlohmann::json;

constexpr std::array<std::pair<ParallelMode, const char*>, 5> kModes = {
    {{ParallelMode::Data, "data"},
     {ParallelMode::ModelCo, "model-co"},
     {ParallelMode::ModelCi, "model-ci"},
     {ParallelMode::HybridCo, "hybrid-co"},
     {ParallelMode::HybridCi, "hybrid-ci"}}};

const std::vector<std::string> kOperators = {"conv", "fc", "depthwise", "pool", "add", "relu"};

struct Reader {
  const std::string& file;
  [[noreturn]] void fail(const std::string& where, const std::string& reason) const {
    throw InputError(file, where, reason);
  }
  const Json& field(const Json& obj, const char* key, const std::string& where) const {
    if (!obj.is_object() || !obj.contains(key)) fail(where, fmt::format("missing '{}'", key));
    return obj.at(key);
  }
  std::string text(const Json& v, const std::string& where) const {
    if (!v.is_string()) fail(where, "must be a string");
    return v.get<std::string>();
  }
  void only(const Json& obj, std::initializer_list<const char*> keys, const std::string& where) const {
    for (const auto& item : obj.items())
      if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return item.key() == k; }))
        fail(where, fmt::format("unknown key '{}'", item.key()));
  }
};

StrategyDim read_dim(const Reader& r, const Json& v, const std::string& where) {
  if (!v.is_object()) r.fail(where, "must be an object {\"dim\": ..., \"store\": ..., \"swap\": ...}");
  r.only(v, {"dim", "whole", "store", "swap"}, where);
  StrategyDim d;
  d.whole = v.value("whole", false);
  const std::string dim = r.text(r.field(v, "dim", where), where + "/dim");
  if (dim.size() != 1 || std::string("nhwc").find(dim) == std::string::npos)
    r.fail(where + "/dim", fmt::format("'{}' must be one of n, h, w, c", dim));
  d.dim = dim[0];
  const std::string store = r.text(r.field(v, "store", where), where + "/store");
  if (store == "mem")
    d.store = {StorageId::Level::Memory, 0};
  else if (store == "cluster")
    d.store = {StorageId::Level::ClusterCache, 0};
  else
    r.fail(where + "/store", fmt::format("'{}' must be mem or cluster", store));
  const std::string swap = r.text(r.field(v, "swap", where), where + "/swap");
  bool known = false;
  for (auto level : {ExchangeLevel::None, ExchangeLevel::Core, ExchangeLevel::Cluster, ExchangeLevel::Memory,
                     ExchangeLevel::CoreAndCluster})
    if (swap == exchange_code(level)) {
      d.swap = level;
      known = true;
    }
  if (!known) r.fail(where + "/swap", fmt::format("'{}' must be one of no, core, cluster, mem, core+cluster", swap));
  return d;
}

ModeStrategy read_mode(const Reader& r, const Json& v, const std::string& where) {
  if (!v.is_object()) r.fail(where, "must be an object with 'mode' and the tensors in, iw, on");
  r.only(v, {"mode", "in", "iw", "on"}, where);
  ModeStrategy m;
  const std::string name = r.text(r.field(v, "mode", where), where + "/mode");
  auto mode = parse_parallel_mode(name);
  if (!mode) r.fail(where + "/mode", fmt::format("'{}' must be data, model-co, model-ci, hybrid-co or hybrid-ci", name));
  m.mode = *mode;
  for (const char* code : {"in", "iw", "on"}) {
    if (!v.contains(code)) continue;
    const Json& list = v.at(code);
    const std::string at = fmt::format("{}/{}", where, code);
    if (!list.is_array() || list.empty()) r.fail(at, "must be a non-empty list of dimensions");
    auto& dims = m.tensors[*parse_category(code)];
    for (std::size_t i = 0; i < list.size(); ++i) dims.push_back(read_dim(r, list[i], fmt::format("{}/{}", at, i)));
    // Weights live in DRAM; an off-core cache keeps a reduced output's partial sums (of
    // model-ci, whole, or of hybrid-ci, cut between clusters) and an input neuron cut along
    // its rows (¶202-207: the layer before keeps its output in the caches for this one).
    const bool reduced = code == std::string("on") && splits_ci(m.mode);
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const bool rows = code == std::string("in") && !dims[i].whole && (dims[i].dim == 'h' || dims[i].dim == 'w');
      if (dims[i].store.level == StorageId::Level::ClusterCache && !rows && !(reduced && (dims[i].whole || is_hybrid(m.mode))))
        r.fail(fmt::format("{}/{}/store", at, i),
               "'cluster' stores only an input cut along h or w, or a reduced output (model-ci, hybrid-ci)");
    }
  }
  if (!m.of(driving_category(m.mode)))
    r.fail(where, fmt::format("mode {} needs the '{}' tensor", name, category_code(driving_category(m.mode))));
  return m;
}

}  // namespace

const char* parallel_mode_name(ParallelMode m) {
  for (const auto& [mode, name] : kModes)
    if (mode == m) return name;
  return "?";
}

std::optional<ParallelMode> parse_parallel_mode(const std::string& name) {
  for (const auto& [mode, n] : kModes)
    if (name == n) return mode;
  return std::nullopt;
}

const std::vector<ParallelMode>& parallel_modes() {
  static const std::vector<ParallelMode> all = [] {
    std::vector<ParallelMode> v;
    for (const auto& [mode, name] : kModes) v.push_back(mode);
    return v;
  }();
  return all;
}

DataCategory driving_category(ParallelMode m) {
  return splits_co(m) ? DataCategory::InputWeight : DataCategory::InputNeuron;
}

bool splits_co(ParallelMode m) { return m == ParallelMode::ModelCo || m == ParallelMode::HybridCo; }
bool splits_ci(ParallelMode m) { return m == ParallelMode::ModelCi || m == ParallelMode::HybridCi; }
bool is_hybrid(ParallelMode m) { return m == ParallelMode::HybridCo || m == ParallelMode::HybridCi; }
bool is_pure_model(ParallelMode m) { return m == ParallelMode::ModelCo || m == ParallelMode::ModelCi; }

const std::vector<StrategyDim>* ModeStrategy::of(DataCategory c) const {
  auto it = tensors.find(c);
  return it == tensors.end() ? nullptr : &it->second;
}

const std::vector<ModeStrategy>& SplitStrategyDatabase::modes(const std::string& op) const {
  static const std::vector<ModeStrategy> none;
  auto it = operators.find(op);
  return it == operators.end() ? none : it->second;
}

const ModeStrategy* SplitStrategyDatabase::mode(const std::string& op, ParallelMode m) const {
  for (const auto& s : modes(op))
    if (s.mode == m) return &s;
  return nullptr;
}

DynamicTag complete_tag(const StaticTag& s, DynamicTag partial, const std::vector<StrategyDim>& dims,
                        std::uint32_t channels, std::uint32_t cores, Rounding rounding) {
  const auto values = operational_values(s, partial);
  auto value_of = [&](char dim) {
    const auto at = partial.order.find(dim);
    return at == std::string::npos ? std::uint64_t(1) : values[at];
  };
  std::vector<SplittableDim> splittable;
  for (const auto& d : dims)
    if (!d.whole) splittable.push_back({d.dim, value_of(d.dim), d.store, d.swap});
  if (splittable.empty()) {
    const StrategyDim& d = dims.front();
    partial.split = SplitIndex{d.dim, {{0, value_of(d.dim) - 1}}};
    partial.store = d.store;
    partial.swap = d.swap;
    return partial;
  }
  const SplitDecision decision = decide_split(splittable, channels, cores, rounding);
  partial.split = decision.index;
  partial.store = decision.store;
  partial.swap = decision.swap;
  return partial;
}

SplitStrategyDatabase load_split_strategies(const std::string& path) {
  const Reader r{path};
  const Json top = parse_strict_json<Json>(read_input_file(path), path);
  if (!top.is_object()) r.fail("", "must be a JSON object");
  r.only(top, {"family", "description", "rounding", "operators"}, "");
  SplitStrategyDatabase db;
  db.file = std::filesystem::path(path).filename().string();
  db.family = r.text(r.field(top, "family", ""), "/family");
  if (top.contains("rounding")) {
    const std::string name = r.text(top.at("rounding"), "/rounding");
    auto rounding = parse_rounding(name);
    if (!rounding) r.fail("/rounding", fmt::format("'{}' must be floor, ceil or round", name));
    db.rounding = *rounding;
  }
  const Json& ops = r.field(top, "operators", "");
  if (!ops.is_object()) r.fail("/operators", "must be an object keyed by operator");
  for (const auto& [op, list] : ops.items()) {
    const std::string where = "/operators/" + op;
    if (std::find(kOperators.begin(), kOperators.end(), op) == kOperators.end())
      r.fail(where, "unknown operator; use conv, fc, depthwise, pool, add or relu");
    if (!list.is_array() || list.empty()) r.fail(where, "must be a non-empty list of modes in priority order");
    for (std::size_t i = 0; i < list.size(); ++i) {
      ModeStrategy m = read_mode(r, list[i], fmt::format("{}/{}", where, i));
      if (db.mode(op, m.mode)) r.fail(fmt::format("{}/{}", where, i), "mode listed twice");
      if (m.mode != ParallelMode::Data && op != "conv" && op != "fc")
        r.fail(fmt::format("{}/{}/mode", where, i), "model parallelism applies to conv and fc only");
      db.operators[op].push_back(std::move(m));
    }
  }
  return db;
}

std::string shipped_split_strategy_file(bool cluster_caches) {
  return (std::filesystem::path(NPUSIM_SOURCE_DIR) / "configs" / "split-strategies" /
          (cluster_caches ? "shared-cache.json" : "bus-contention.json"))
      .string();
}

}  // namespace npusim
