#include "apps/compiler/planning/LoadOrderPlanner.h"

#include <fmt/format.h>

#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/planning/LayerPlacement.h"

namespace npusim {

namespace {

// "N % fewer" / "N % more" DRAM bytes than weight-stationary.
std::string against_ws(std::uint64_t bytes, std::uint64_t ws) {
  if (ws == 0 || bytes == ws) return "the same DRAM bytes as ws";
  const double change = 100.0 * (double(bytes) - double(ws)) / double(ws);
  return fmt::format("{:.1f} % {} DRAM bytes than ws ({} against {})", std::abs(change), change < 0 ? "fewer" : "more",
                     bytes, ws);
}

}  // namespace

LoadOrderPlanner::LoadOrderPlanner(const Workload& w, const HardwareConfig& hw, const SplitOptions& options)
    : w_(w), hw_(hw), options_(options) {}

LayerTiling LoadOrderPlanner::tiled(const Layer& l, const LayerTiling& t, const LoadOrderPlan& order,
                                    bool input_chained) const {
  ChannelShares shares{t.split, t.cores, t.shares};
  return tile_layer(w_, l, hw_, t.split == ParallelMode::Data ? nullptr : &shares, input_chained, &order);
}

// Every order of the layer alone on the chip, in the split mode the layer took.
void LoadOrderPlanner::run_trials(const Layer& l, const LayerTiling& t, LoadOrderPlan& order) const {
  const Workload one = one_layer(w_, l);
  for (LoadOrder o : kLoadOrders) {
    LoadOrderCandidate c{o, std::nullopt, 0};
    const std::string key = fmt::format("{} {} {}", shape_key(l, t.split), load_order_name(o),
                                        order.unit ? compute_unit_name(*order.unit) : "rows");
    auto it = trials_.find(key);
    if (it == trials_.end()) {
      SplitOptions forced;
      forced.choice = forced_split(t.split);
      forced.strategy_file = options_.strategy_file;
      forced.load_order.forced = o;
      forced.load_order.unit = order.unit;
      it = trials_.emplace(key, options_.figures(one, hw_, forced)).first;
    }
    if (it->second) c = {o, it->second->cycles, it->second->dram_bytes};
    order.candidates.push_back(c);
  }
}

// The fewest cycles alone; weight-stationary (listed first) wins ties and failed trials.
void LoadOrderPlanner::pick_fastest(LoadOrderPlan& order) const {
  const LoadOrderCandidate& ws = order.candidates.front();
  const LoadOrderCandidate* best = &ws;
  for (const LoadOrderCandidate& c : order.candidates)
    if (c.cycles && best->cycles && *c.cycles < *best->cycles) best = &c;
  order.order = best->order;
  if (!ws.cycles) {
    order.reason = "ws: the trials failed, so the compiler's default order";
  } else if (best == &ws) {
    order.reason = fmt::format("ws: no order simulates faster alone ({} cycles)", *ws.cycles);
  } else {
    order.reason = fmt::format("{}: simulates fastest alone ({} cycles against ws's {}); {}", load_order_name(best->order),
                               *best->cycles, *ws.cycles, against_ws(best->dram_bytes, ws.dram_bytes));
  }
}

void LoadOrderPlanner::plan(const Layer& l, LayerTiling& t, bool input_chained) const {
  const LoadOrderOptions& o = options_.load_order;
  if (!o.given() || !lowering(t.engine).orders_loads(l)) return;
  LoadOrderPlan order;
  order.unit = o.unit;
  if (!o.automatic) {
    order.order = o.forced.value_or(LoadOrder::WeightStationary);
    order.choice = "--load-order";
    order.reason = o.forced ? fmt::format("{}: forced by --load-order", load_order_name(order.order))
                            : "ws: the compiler's default order";
  } else {
    order.choice = "auto";
    if (t.co_blocks == 1 || !options_.figures) {
      order.reason = t.co_blocks == 1 ? "ws: the weights make one block, so ws already reads every byte once"
                                      : "ws: no trial to compare the orders with";
    } else {
      run_trials(l, t, order);
      pick_fastest(order);
    }
  }
  t = tiled(l, t, order, input_chained);
}

}  // namespace npusim
