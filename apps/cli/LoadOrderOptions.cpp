#include <CLI/CLI.hpp>

#include "apps/cli/Cli.h"
#include "sim/common/InputError.h"

namespace npusim {

void add_load_order_options(CLI::App& cmd, std::string& order, std::string& unit) {
  cmd.add_option("--load-order", order,
                 "In which order each conv and fc layer's data is loaded (seed004 §2.5.1): ws = weight-stationary, "
                 "a weight block stays in WRAM while every input band streams past it (the input is read once per "
                 "weight block); fs = feature-map-stationary, an input band stays in NRAM while the weight blocks "
                 "stream past it (the weights are read once per band); rs = row-stationary (Eyeriss), as fs with "
                 "bands as tall as half of NRAM holds and outputs drained a few rows at a time; auto = per layer, "
                 "the order whose layer simulates fastest alone on the chip (ws on a tie). Combines with --split. "
                 "Default: ws, and the report says nothing about orders (docs/load-orders.md)")
      ->check(CLI::IsMember({"ws", "fs", "rs", "auto"}));
  cmd.add_option("--compute-unit", unit,
                 "seed004's \"compute starts once one complete compute unit's data is in\": round = the kernels of "
                 "the slaves' first round and the input rows under its window; instruction = the conv's whole band "
                 "and weight block. Default: input rows staged, weights whole (the compiler's rule before load orders)")
      ->check(CLI::IsMember({"round", "instruction"}));
}

void apply_load_order_options(SplitOptions& options, const std::string& order, const std::string& unit) {
  options.load_order.automatic = order == "auto";
  if (!order.empty() && order != "auto") options.load_order.forced = parse_load_order(order);
  if (!unit.empty()) options.load_order.unit = parse_compute_unit(unit);
}

}  // namespace npusim
