// Placement by cost's energy objective on the Wfold matrix unit: the counters a planned layer
// is predicted to add (apps/compiler/planning/LayerPlacement.h), from the same band plan
// band_cycles() predicts with.
#include <algorithm>

#include "apps/compiler/lower_matrix/MatrixLowering.h"
#include "apps/compiler/tiling/LayerTiler.h"
#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

namespace {

// The counters MatrixUnit::count adds for one conv instruction of `p` (one band of one
// weight block); its requantization on the result path, with a bias, is two passes.
std::map<std::string, double> instruction_counts(const WfoldPlan& p, bool biased) {
  const double passes = p.requantized ? (biased ? 2 : 1) : 0;
  return {{"issued_macs", double(p.macs.issued)},
          {"broadcast_bytes", double(p.broadcast_bytes)},
          {"distribution_bytes", double(p.distribution_bytes)},
          {"requantized_results", passes * double(p.output_bytes / p.output_element_bytes)},
          {"relay_bytes_written", double(p.relay_bytes_written)},
          {"relay_bytes_read", double(p.relay_rows) * p.m_bytes},
          {"third_buffer_bytes", double(p.third_buffer_bytes)}};
}

}  // namespace

// Every band of every weight block as the first band's plan; DRAM: each band's input rows
// once per weight block, each core's weights once, the output once (int8).
std::optional<Lowering::PredictedCounts> MatrixLowering::layer_counts(const Workload& w, const Layer& l,
                                                                      const LayerTiling& t,
                                                                      const HardwareConfig&) const {
  const double instructions = double(t.tiles(w.batch)) * t.co_blocks;
  PredictedCounts c;
  for (const auto& [name, n] : instruction_counts(band_plan(t), l.bias_values != nullptr))
    c.counters[name] = n * instructions;
  const BandWindow band = t.band(l, 0, t.rows);
  const double cores = double(std::min<std::uint64_t>(std::max<std::size_t>(1, t.cores.size()), t.tiles(w.batch)));
  c.dram_read = double(band.in_rows) * l.in.w * l.in.c * instructions +
                double(t.weight_block_bytes) * t.co_blocks * cores;
  c.dram_written = double(w.batch) * l.out.h * l.out.w * l.out.c;
  return c;
}

}  // namespace npusim
