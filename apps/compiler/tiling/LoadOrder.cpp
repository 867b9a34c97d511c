#include "apps/compiler/tiling/LoadOrder.h"

#include <nlohmann/json.hpp>

namespace npusim {

const char* load_order_name(LoadOrder o) {
  switch (o) {
    case LoadOrder::FeatureMapStationary: return "fs";
    case LoadOrder::RowStationary: return "rs";
    default: return "ws";
  }
}

std::optional<LoadOrder> parse_load_order(const std::string& name) {
  for (LoadOrder o : kLoadOrders)
    if (name == load_order_name(o)) return o;
  return std::nullopt;
}

const char* compute_unit_name(ComputeUnit u) { return u == ComputeUnit::Round ? "round" : "instruction"; }

std::optional<ComputeUnit> parse_compute_unit(const std::string& name) {
  if (name == "round") return ComputeUnit::Round;
  if (name == "instruction") return ComputeUnit::Instruction;
  return std::nullopt;
}

const LoadOrderPlan* load_order_plan(const LayerTiling& t) { return t.engine_plan<LoadOrderPlan>(kLoadOrderNote); }

LoadOrder load_order_of(const LayerTiling& t) {
  const LoadOrderPlan* p = load_order_plan(t);
  return p ? p->order : LoadOrder::WeightStationary;
}

bool input_resident(const LayerTiling& t) { return load_order_of(t) != LoadOrder::WeightStationary; }

// Each candidate's cycles and DRAM bytes, and its DRAM bytes against ws's as a fraction
// (-0.6: 60 % fewer), so a report says at once which order moves less.
nlohmann::json load_order_json(const LoadOrderPlan& p) {
  nlohmann::json candidates = nlohmann::json::object();
  const LoadOrderCandidate* ws = p.candidates.empty() ? nullptr : &p.candidates.front();
  for (const LoadOrderCandidate& c : p.candidates) {
    nlohmann::json figures = {{"dram_bytes", c.dram_bytes}};
    figures["cycles"] = c.cycles ? nlohmann::json(*c.cycles) : nlohmann::json(nullptr);
    if (ws && ws->cycles && c.cycles && ws->dram_bytes > 0)
      figures["dram_bytes_vs_ws"] = (double(c.dram_bytes) - double(ws->dram_bytes)) / double(ws->dram_bytes);
    candidates[load_order_name(c.order)] = figures;
  }
  nlohmann::json j = {{"order", load_order_name(p.order)},
                      {"choice", p.choice},
                      {"reason", p.reason},
                      {"compute_unit", p.unit ? compute_unit_name(*p.unit) : "rows"},
                      {"candidates", candidates}};
  if (p.psum_rows) j["psum_rows"] = p.psum_rows;
  return j;
}

}  // namespace npusim
