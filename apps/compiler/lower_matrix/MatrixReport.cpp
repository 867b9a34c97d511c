// What a Wfold layer adds to its report row: where it requantizes, and for model-ci the
// time its cross-core reduction takes (seed002).
#include "apps/compiler/lower_matrix/MatrixLowering.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "apps/compiler/tiling/LayerTiler.h"
#include "sim/report/RunStats.h"

namespace npusim {

void MatrixLowering::record(const InstructionRecord& r, bool in_reduction, Counters& c) const {
  if (in_reduction) c.counts["reduction_busy_cycles"] += r.end - r.start;
  if (r.op == "conv") c.counts["last_conv_end"] = std::max(c.of("last_conv_end"), r.end);
}

// The reduction's busy cycles (exchange stores and loads, adds) and the cycles from the
// end of the layer's last conv to its end.
void MatrixLowering::report(const Layer& l, const LayerTiling& t, const Counters& c, nlohmann::json& row) const {
  if (t.engine != name()) return;
  row["result_path"] = t.requantize_on_result_path ? "requantized" : "accumulators";
  if (!splits_ci(t.split)) return;
  const Cycles end = row.at("end_cycle").get<Cycles>(), last_conv = c.of("last_conv_end");
  row["split"]["reduction"] = {{"busy_cycles", c.of("reduction_busy_cycles")},
                               {"tail_cycles", end > last_conv ? end - last_conv : 0}};
}

}  // namespace npusim
