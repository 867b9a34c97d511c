#include <functional>
#include <iostream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "models/matrix_unit/ConvShape.h"
#include "models/sparse_cluster/Explain.h"
#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "apps/cli/ExplainSplit.h"
#include "apps/compiler/emit/Lowering.h"
#include "sim/config/ConfigLoader.h"

namespace npusim {

namespace {
struct ExplainOptions {
  std::string config = "configs/default.json";
  std::string layer;
  std::string engine;    // empty: the engine the compiler would choose
  std::string sparsity;  // "ifm=F,weights=F[,seed=N]"
  std::string format = "text";
  bool load_orders = false;  // also how --load-order auto would load the layer (trials)
};

// The lowerings that explain a layer, by rank: the --engine choices.
std::vector<const Lowering*> explainers() {
  std::vector<const Lowering*> found;
  for (const Lowering* l : lowerings())
    if (!l->explain_help().empty()) found.push_back(l);
  return found;
}

// "a, b or c" of each explainer's text.
std::string listed(const std::function<std::string(const Lowering&)>& text) {
  const auto all = explainers();
  std::string out;
  for (std::size_t i = 0; i < all.size(); ++i)
    out += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + text(*all[i]);
  return out;
}

std::vector<std::string> explainer_names() {
  std::vector<std::string> names;
  for (const Lowering* l : explainers()) names.push_back(l->name());
  return names;
}

// Without --engine, as the compiler would choose: a lowering that claims the layer (the
// sparse cluster's verdict), else the first that explains by default on this chip.
const Lowering& default_explainer(const Lowering::ExplainRequest& q) {
  for (const Lowering* l : explainers())
    if (l->explain_claims(q)) return *l;
  for (const Lowering* l : explainers())
    if (l->explains_by_default(q.hw)) return *l;
  throw std::logic_error("no lowering explains a conv layer by default");
}

// The layer as explain read it (defaults filled in), with its output size.
nlohmann::json layer_json(const ConvShape& s) {
  return {{"n", s.n},   {"hi", s.hi}, {"wi", s.wi}, {"ci", s.ci}, {"co", s.co},
          {"kh", s.kh}, {"kw", s.kw}, {"sh", s.sh}, {"sw", s.sw},
          {"pad", {s.pad_top, s.pad_bottom, s.pad_left, s.pad_right}},
          {"element_bytes", s.element_bytes}, {"ho", s.ho()}, {"wo", s.wo()}};
}

// --format json, for programs (the Python API's npusim.explain): which engine explained the
// layer (without --engine only explain knows) and the layer as read, beside the same text.
void print_json(const ExplainOptions& opt, const Lowering::ExplainRequest& q, const Lowering& chosen,
                const nlohmann::json& split, const nlohmann::json& order) {
  std::string notes;
  for (const Lowering* l : explainers())
    if (l != &chosen) notes += l->explain_preamble(q);
  nlohmann::json out = {{"config", opt.config}, {"engine", chosen.name()}, {"layer", layer_json(q.layer)},
                        {"notes", notes}, {"explanation", chosen.explain(q)}};
  if (!split.is_null()) out["split"] = split;
  if (!order.is_null()) out["load_order"] = order;
  std::cout << out.dump(2) << "\n";
}

void explain(const ExplainOptions& opt) {
  const HardwareConfig hw = load_hardware_config(bundled_file(opt.config));
  const ConvShape layer = parse_conv_spec(opt.layer);
  const LayerSparsity zeros = parse_sparsity_spec(opt.sparsity);
  const Lowering::ExplainRequest q{hw, layer, zeros};
  const Lowering& chosen = opt.engine.empty() ? default_explainer(q) : lowering(opt.engine);
  // On several cores, how auto would share the layer: its trials, as `npusim run` times them.
  const nlohmann::json split = explain_split(hw, layer);
  const nlohmann::json order = opt.load_orders ? explain_load_order(hw, layer) : nlohmann::json();
  if (opt.format == "json") {
    print_json(opt, q, chosen, split, order);
    return;
  }
  for (const Lowering* l : explainers())
    if (l != &chosen) std::cout << l->explain_preamble(q);
  std::cout << chosen.explain(q) << split_text(split) << load_order_text(order);
}

}  // namespace

void add_explain_command(CLI::App& app) {
  auto opt = std::make_shared<ExplainOptions>();
  CLI::App* cmd =
      app.add_subcommand("explain", "Show how one conv layer maps onto " +
                                        listed([](const Lowering& l) { return l.explain_target(); }));
    add_config_option(*cmd, opt->config);
  cmd->add_option("-l,--layer", opt->layer,
                  "Layer, as key=value pairs: hi wi ci co kh kw (required); n, sh sw or stride, "
                  "pad=P or pad=T,B,L,R, dtype=int8|float32 (optional)")
      ->required();
  cmd->add_option("-e,--engine", opt->engine,
                  listed([](const Lowering& l) { return l.name() + " (" + l.explain_help() + ")"; }) +
                      "; default: the engine the compiler would choose")
      ->check(CLI::IsMember(explainer_names()));
  cmd->add_option("-s,--sparsity", opt->sparsity,
                  "Zero fractions of the layer: ifm=F,weights=F[,seed=N] (default 0, 0, 1). On a chip with a sparse "
                  "cluster they decide whether the layer is sparse, and set where the zeros fall");
  cmd->add_option("--format", opt->format,
                  "text (default) or json: {config, engine (the one that explained the layer), layer (as read, "
                  "with ho and wo), notes (the other engines' remarks), explanation (the text), and on a multi-core chip "
                  "split (--split auto's mode, reason, rule_choice, cores and each mode's simulated_cycles alone "
                  "and estimated_cycles)}")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--load-orders", opt->load_orders,
                "Also run the layer alone in each load order (ws, fs, rs: docs/load-orders.md) as --load-order auto "
                "does, and print each order's cycles and DRAM bytes, auto's choice and why, and its tiling "
                "(json: load_order)");
  cmd->footer(
      "\nPrints the derived Pci, Ws, Bci, Aco, kmax, the loop counts Nco/Nkw/Nkh/Nci, the tiling,\n"
      "the stride transform, reuse factors, the MAC breakdown and the cycle estimate. With\n"
      "--engine shader: the register-group tiles, bytes fetched against a host-side im2col,\n"
      "register-file traffic, fetch and MAC cycles and instruction slots. With --engine sparse\n"
      "(or --sparsity that the chip's scheduling engine calls sparse): the verdict, the partition\n"
      "over the units with its imbalance, and per unit the non-zeros, rounds, products, multiplier\n"
      "utilization, FIFO collisions, VAR windows and cycles. The numbers come from the same\n"
      "mapping code the simulator and the compiler use.\n"
      "\nAny layer is answered at once: past 2^20 steps the Wfold tile pipeline is not followed and the\n"
      "total is given as a lower bound; the shader and sparse explanations, which lay out every tile or\n"
      "non-zero, refuse a layer past their limits with one line naming the limit (exit 2).\n"
      "\nOn a chip with several cores, a last \"split\" line says how --split auto would share the layer:\n"
      "each candidate mode run alone on the chip (the trials auto compares), the estimate, the reason.\n"
      "\nExamples:\n"
      "  npusim explain --layer hi=56,wi=56,ci=64,co=64,kh=3,kw=3,pad=1\n"
      "  npusim explain --layer hi=224,wi=224,ci=3,co=64,k=7,stride=2,pad=3\n"
      "  npusim explain --config configs/numa-2x2.json --layer hi=14,wi=14,ci=48,co=32,k=3\n"
      "  npusim explain --config configs/gpu-shader.json --layer hi=5,wi=5,ci=3,co=2,k=3   (seed003's example)\n"
      "  npusim explain --config configs/sparse.json --layer hi=56,wi=56,ci=64,co=64,k=3,pad=1 "
      "--sparsity ifm=0.5,weights=0.8\n"
      "  npusim explain --layer hi=56,wi=56,ci=64,co=64,k=3,pad=1 --format json\n"
      "  npusim explain --layer hi=112,wi=112,ci=64,co=128,k=3,pad=1 --load-orders   ws, fs and rs alone");
  cmd->callback([opt] { explain(*opt); });
}

}  // namespace npusim
