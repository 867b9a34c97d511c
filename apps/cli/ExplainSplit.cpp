#include "apps/cli/ExplainSplit.h"

#include <fmt/format.h>

#include "apps/compiler/planning/LoadOrderPlanner.h"
#include "apps/compiler/planning/SplitPlanner.h"
#include "apps/frontend/workload/LayerChecks.h"
#include "apps/simulation/LayerTrial.h"

namespace npusim {

namespace {

// The explained layer as a one-layer workload, as a JSON workload would give it.
Workload conv_workload(const ConvShape& s) {
  Workload w;
  w.name = "explain";
  w.file = "explain";
  w.batch = s.n;
  w.input = {s.hi, s.wi, s.ci};
  Layer l;
  l.name = "layer";
  l.kind = LayerKind::Conv;
  l.inputs = {"input"};
  l.in = w.input;
  l.out = {s.ho(), s.wo(), s.co};
  l.kh = s.kh;
  l.kw = s.kw;
  l.sh = s.sh;
  l.sw = s.sw;
  l.pad = {s.pad_top, s.pad_bottom, s.pad_left, s.pad_right};
  l.shift = default_layer_shift(l);
  w.layers = {l};
  return w;
}

template <typename Cycles>
nlohmann::json by_mode(const std::vector<std::pair<ParallelMode, Cycles>>& figures) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [mode, cycles] : figures) j[parallel_mode_name(mode)] = cycles;
  return j;
}

}  // namespace

nlohmann::json explain_split(const HardwareConfig& hw, const ConvShape& layer) {
  if (hw.chip.cores() < 2 || layer.element_bytes != 1) return nullptr;
  const Workload w = conv_workload(layer);
  SplitOptions options;
  use_simulated_trials(options);  // the default time limit
  const SplitPlanner planner(w, hw, options);
  const auto [tiling, split] = planner.plan(w.layers[0], 0, 0);
  return {{"cores", tiling.cores.size()},
          {"mode", parallel_mode_name(split.mode)},
          {"rule_choice", split.rule_choice ? parallel_mode_name(*split.rule_choice) : "none"},
          {"reason", split.reason},
          {"simulated_cycles", by_mode(split.simulated)},
          {"estimated_cycles", by_mode(split.estimates)}};
}

std::string split_text(const nlohmann::json& split) {
  if (split.is_null()) return "";
  auto figures = [](const nlohmann::json& j) {
    std::string out;
    for (const auto& [mode, cycles] : j.items()) out += fmt::format(" {} {:.0f}", mode, cycles.get<double>());
    return out.empty() ? std::string(" none") : out;
  };
  return fmt::format("split      {} cores, --split auto: {} ({}; the §3.3 rule's choice: {})\n"
                     "           cycles alone:{}; estimated:{}\n",
                     split.at("cores").get<std::size_t>(), split.at("mode").get<std::string>(),
                     split.at("reason").get<std::string>(), split.at("rule_choice").get<std::string>(),
                     figures(split.at("simulated_cycles")), figures(split.at("estimated_cycles")));
}

nlohmann::json explain_load_order(const HardwareConfig& hw, const ConvShape& layer) {
  if (layer.element_bytes != 1) return nullptr;
  const Workload w = conv_workload(layer);
  SplitOptions options;
  use_simulated_trials(options);  // the default time limits
  options.load_order.automatic = true;
  auto [tiling, split] = SplitPlanner(w, hw, options).plan(w.layers[0], 0, 0);
  LoadOrderPlanner(w, hw, options).plan(w.layers[0], tiling, false);
  const LoadOrderPlan* order = load_order_plan(tiling);
  if (!order) return nullptr;
  nlohmann::json j = load_order_json(*order);
  j["tiling"] = {{"rows_per_band", tiling.rows},
                 {"bands_per_image", tiling.bands},
                 {"co_block", tiling.co_block},
                 {"co_blocks", tiling.co_blocks}};
  return j;
}

std::string load_order_text(const nlohmann::json& order) {
  if (order.is_null()) return "";
  std::string figures;
  for (const auto& [name, c] : order.at("candidates").items())
    figures += c.at("cycles").is_null()
                   ? fmt::format(" {} -", name)
                   : fmt::format(" {} {} cycles {} B;", name, c.at("cycles").get<std::uint64_t>(),
                                 c.at("dram_bytes").get<std::uint64_t>());
  const auto& t = order.at("tiling");
  return fmt::format("load order --load-order auto: {} ({})\n"
                     "           alone on the chip:{}\n"
                     "           tiling: {} rows per band, {} bands, {} weight blocks of {} channels\n",
                     order.at("order").get<std::string>(), order.at("reason").get<std::string>(),
                     figures.empty() ? " none" : figures, t.at("rows_per_band").get<std::uint32_t>(),
                     t.at("bands_per_image").get<std::uint32_t>(), t.at("co_blocks").get<std::uint32_t>(),
                     t.at("co_block").get<std::uint32_t>());
}

}  // namespace npusim
