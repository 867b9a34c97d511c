#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/compiler/TraceEmitter.h"
#include "apps/compiler/emit/Lowering.h"
#include "apps/simulation/layer_report/LayerBound.h"
#include "sim/report/RunStats.h"

namespace npusim {

// One row of the per-layer table.
struct LayerRow {
  std::string name;
  std::string kind;
  std::string engine;                 // the engine that computed it
  std::string core_kind;              // the kind of core it ran on ("core" unless /core_kinds says otherwise)
  std::uint32_t cores = 0;            // how many cores shared it
  Cycles first_start = 0, last_end = 0;
  std::uint64_t instructions = 0;
  std::uint64_t macs = 0;             // useful, whole batch
  std::uint64_t compulsory_bytes = 0; // inputs + weights + output, each crossing DRAM once
  double compute_cycles = 0;          // MACs over the layer's cores' peak
  double dram_cycles = 0;             // compulsory bytes over every DRAM channel together
  // What the lowerings' report sections count from the records (emit/Lowering.h).
  Lowering::Counters counters;

  Cycles cycles() const { return instructions ? last_end - first_start : 0; }
};

// Gathers per-layer timing from instruction records as they complete and turns it
// into report rows. A layer's bound is the resource whose own work takes longest
// (LayerBound.h): compute, DRAM as a whole, the busiest channel, DMA, link or cache port.
class LayerReport {
 public:
  LayerReport(const TraceEmitter& emitter, const HardwareConfig& hw);
  // Layer `i`'s bound from what its instructions moved (complete once it is emitted).
  LayerBound bound(std::size_t i) const;

  void record(const InstructionRecord& r);
  const std::vector<LayerRow>& rows() const { return rows_; }
  double peak_macs_per_cycle() const { return peak_macs_; }
  double dram_bytes_per_cycle() const { return dram_bpc_; }

  // report.json "workload": the chip's peaks, and with `with_rows` a row per layer (left
  // unbuilt when --rows none will not write them: 10^5 layers took 2 GB as JSON).
  nlohmann::json to_json(bool with_rows = true) const;
  // The per-layer table after the run summary, with each layer's energy when the run has an account.
  void print_table(std::ostream& os, const RunStats& stats) const;

 private:
  nlohmann::json rows_json() const;
  const TraceEmitter& emitter_;
  const HardwareConfig& hw_;
  std::vector<const Lowering*> lowerings_;  // by rank, once: each adds its counters and section
  std::vector<LayerRow> rows_;
  double peak_macs_ = 0;
  double dram_bpc_ = 0;
};

}  // namespace npusim
