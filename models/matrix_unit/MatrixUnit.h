#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/engine/Engine.h"
#include "models/matrix_unit/BroadcastBus.h"
#include "models/matrix_unit/LayerStats.h"
#include "models/matrix_unit/SlaveCircuit.h"
#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

// The Wfold matrix unit of one core (seed000 Fig. 5) as a compute engine for
// `conv` instructions. This module is the master circuit: it forms data rows
// from NRAM (first storage circuit) and sends them over the BroadcastBus; each
// SlaveCircuit child receives its weights from WRAM (second storage circuit) over
// its own distribution link; results go back to NRAM.
// How long the slave circuits compute comes from the WfoldPlan's loop nest; the
// buses and both scratchpad ports are shared resources, so DMA traffic on
// NRAM/WRAM slows the unit down. Functional runs compute the outputs through
// WfoldDatapath, i.e. through the same data rows and loop nest.
class MatrixUnit : public Engine {
 public:
  MatrixUnit(sc_core::sc_module_name name, EngineSetup setup, const MatrixUnitConfig& cfg);

  void connect(CoreWiring& wiring) override;
  std::vector<PortStats> port_stats() const override;
  void add_report_sections(nlohmann::json& sections) const override;

 protected:
  Work execute(const Instruction& inst) override;
  std::vector<ReadStep> read_steps(const Instruction& inst) override;

 private:
  const WfoldPlan& plan_for(const Instruction& inst);
  const WfoldPlan& find_plan(const Instruction& inst);
  struct TilePlace {
    std::uint64_t image = 0, round = 0, rounds = 1, row = 0;
    bool last_round = true, last_in_row = true;
  };
  static TilePlace place_of(const WfoldPlan& plan, std::uint64_t tile);
  const std::vector<TileTimes>& tile_times(const WfoldPlan& plan, const Instruction& inst, bool& computed);
  Schedule stream_tiles(const WfoldPlan& plan, const std::vector<TileTimes>& times, const Instruction& inst);
  Cycles read_inputs(const WfoldPlan& plan, const TensorOperand& ifmap, Cycles now, Cycles begin,
                     std::uint64_t requests, std::uint64_t bytes);
  // Sends a tile's weight rows of co round `round` to the slaves; returns when all have them.
  Cycles distribute_weights(const WfoldPlan& plan, std::uint64_t round, std::uint64_t bytes, Cycles now,
                            Cycles earliest);
  struct SlaveShares {
    std::uint64_t round = 0, total = 0;
    std::vector<std::uint64_t> bytes;  // per slave
    std::vector<Cycles> cycles;        // on its link
  };
  const SlaveShares& slave_shares(const WfoldPlan& plan, std::uint64_t round, std::uint64_t bytes);
  SlaveShares& next_split();
  void regroup_links(Cycles now);
  void account_slaves(const WfoldPlan& plan, Cycles cycles);
  void compute(const WfoldPlan& plan, const Instruction& inst);

  MatrixUnitConfig cfg_;
  // Registered counters (stat_group): the Wfold mapping's accounting, summed over conv instructions.
  struct Counters {
    std::uint64_t* useful_macs;
    std::uint64_t* issued_macs;
    std::uint64_t* data_rows;
    std::uint64_t* broadcast_bytes;
    std::uint64_t* weight_rows;
    std::uint64_t* distribution_bytes;
    std::uint64_t* output_bytes;
    std::uint64_t* requantized_results;
    std::uint64_t* nram_read_requests;
    std::uint64_t* write_requests;
    std::uint64_t* relay_bytes_written;
    std::uint64_t* relay_bytes_read;
    std::uint64_t* third_buffer_bytes;
  } counters_;
  void register_counters();
  void count(const WfoldPlan& plan, bool biased);
  Scratchpad* nram_ = nullptr;
  Scratchpad* wram_ = nullptr;
  BroadcastBus broadcast_bus_;
  std::vector<std::unique_ptr<SlaveCircuit>> slaves_;
  // The slave whose link calendar each slave's link mirrors (itself: its own); see
  // distribute_weights. The instruction's weight splits so far (slave_shares).
  std::vector<std::size_t> leader_;
  std::vector<SlaveShares> splits_;  // the first live_splits_ are this instruction's
  std::size_t live_splits_ = 0;
  static constexpr std::size_t kKeptSplits = 16;
  LayerStats layer_stats_;
  std::map<WfoldPlanKey, std::unique_ptr<WfoldPlan>> plans_;  // layers repeat: plan each shape once
  const WfoldPlan* last_plan_ = nullptr;                       // of instruction last_plan_id_
  std::uint64_t last_plan_id_ = 0;
  std::vector<std::int32_t> accumulators_;  // functional runs that requantize on the result path
  std::vector<std::uint8_t> transposed_;    // functional runs with transposed weights: the [co, ci] copy
  // --matrix-model cycle-stepped: tile times per plan (timing runs), or of this instruction.
  std::map<const WfoldPlan*, std::vector<TileTimes>> stepped_times_;
  std::vector<TileTimes> stepped_scratch_;
  std::vector<Cycles> set_late_;  // stream_tiles: how late each tile gave its result set back
};

// The conv layer a `conv` instruction describes (operand shapes and params).
ConvShape conv_shape_of(const Instruction& inst);
// The conv's weights are a 1x1 kernel stored [ci, 1, 1, co] (params.transposed_weights).
bool weights_transposed(const Instruction& inst);
// Whether a `conv` instruction requantizes on the result path (it has a shift; its output is int8).
bool requantizes(const Instruction& inst);

struct SteppedConvRun;
struct ResultRequant;
// The shift and ReLU of a conv that requantizes on the result path.
ResultRequant result_requant_of(const WfoldPlan& plan, const Instruction& inst);
// The cycle-stepped reference's tile times in the fast model's form.
std::vector<TileTimes> tile_times_of(const SteppedConvRun& run);

}  // namespace npusim
