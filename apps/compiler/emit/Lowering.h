#pragma once
#include "sim/common/UniqueName.h"
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace npusim {

class EmitContext;
class LoweringState;
struct CompiledLayer;
// What the planning side of a lowering sees (declared here, so this header stays a leaf).
struct ConvShape;
struct HardwareConfig;
struct InstructionRecord;
struct Layer;
struct LayerSparsity;
struct LayerTiling;
struct Workload;

// How layers become instructions on one engine: the compiler-side twin of an engine's
// registration (models/engine/EngineRegistry.h). Each engine that computes layers has one
// Lowering, in apps/compiler/lower_<name>/, registered with NPUSIM_REGISTER_LOWERING; the
// compiler, `explain` and the run report reach it by name (LayerTiling::engine), so no
// shared file names an engine. The name is the engine a layer's tiling names: matrix,
// vector, shader, sparse, or dma (concat: data movement only).
class Lowering {
 public:
  // `rank`: the order lowerings are tried and listed in (placement, --engine choices, help,
  // their own DRAM slots), lower first; a fixed number, never link or registration order.
  Lowering(std::string name, int rank) : name_(std::move(name)), rank_(rank) {}
  virtual ~Lowering() = default;
  const std::string& name() const { return name_; }
  int rank() const { return rank_; }

  // Placement (planning/LayerPlacement.cpp). Every engine a core needs for this lowering
  // to compute `l`, or none when it does not take `l` (its kind, or the layer's "engine"
  // names another lowering). Lowerings are tried by rank; a layer goes to the first whose
  // engines some core kind has.
  virtual std::vector<std::string> takes(const Layer& l) const { return {}; }
  // Runs on every layer, for every lowering, before any takes(): may leave a note on the
  // tiling (the sparse verdict) or claim the layer, placing it on its cores (true).
  virtual bool probe(const Workload& w, const Layer& l, LayerTiling& t, const HardwareConfig& hw) const {
    return false;
  }
  // Its part of a placed layer's tiling (t.engine is this lowering, t.cores and any model
  // shares are set): blocks, bands and the engine's own mapping.
  virtual void plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const {}
  // Placement by cost (planning/LayerPlacement.cpp): whether the chip asks that a layer this
  // lowering's probe() would judge be placed by predicted cycles instead (auto-cost).
  virtual bool places_by_cost(const HardwareConfig& hw) const { return false; }
  // The cycles a planned layer is predicted to take on this lowering's engine, from its own
  // mapping; default: band_cycles() for each band and weight block of the busiest core.
  virtual std::optional<double> layer_cycles(const Workload& w, const Layer& l, const LayerTiling& t,
                                             const HardwareConfig& hw) const;
  // Placement by cost: whether `reader`, if placed on this lowering, would take the output
  // of `producer` (already placed on it; read by `producer_readers` layers) as stored, with
  // no pass of its own to convert it (the sparse cluster's compressed outputs).
  virtual bool chains_to(const Layer& producer, std::uint32_t producer_readers, const Layer& reader,
                         const Workload& w) const {
    return false;
  }
  // Placement by cost's energy objective (auto-cost-energy): whether the chip asks for it.
  virtual bool places_by_energy(const HardwareConfig& hw) const { return false; }
  // What a planned layer is predicted to add to this lowering's engine counters (by counter
  // name, as the engine's energy declaration names them, summed over every core) and the
  // DRAM bytes it moves, from the same mapping layer_cycles() predicts with; none: not
  // predicted. LayerPlacement prices it with the run's energy table (PredictedEnergy.h).
  struct PredictedCounts {
    std::map<std::string, double> counters;
    double dram_read = 0, dram_written = 0;  // bytes
  };
  virtual std::optional<PredictedCounts> layer_counts(const Workload& w, const Layer& l, const LayerTiling& t,
                                                      const HardwareConfig& hw) const {
    return std::nullopt;
  }
  // Load orders (tiling/LoadOrder.h, planning/LoadOrderPlanner.h): whether its plan() and
  // emission follow a layer's LoadOrderPlan; else the layer stays weight-stationary.
  virtual bool orders_loads(const Layer& l) const { return false; }
  // Model modes (planning/SplitPlanner.cpp): whether cores can share `l` by its channels.
  virtual bool splits_channels(const Layer& l) const { return false; }
  // Cycles one band of one weight block takes, to compare split modes; none: not compared.
  virtual std::optional<double> band_cycles(const LayerTiling& t) const { return std::nullopt; }
  // Channel lanes of the engine's data layout, for the tags' dynamic part (S14-S16).
  virtual std::uint32_t tag_lanes(const LayerTiling& t) const { return 1; }

  // The run report (simulation/layer_report): what a layer's row gathers from the run's
  // instruction records beyond the common fields. Every lowering sees every record and
  // keeps its own names.
  struct Counters {
    std::uint64_t dram_bytes = 0;                  // moved by engine DRAM ops (the compiler counts loads and stores)
    std::map<std::string, std::uint64_t> counts;  // the sections' counters, by name
    std::uint64_t of(const std::string& name) const {
      const auto it = counts.find(name);
      return it == counts.end() ? 0 : it->second;
    }
  };
  // One completed instruction of a layer; `in_reduction`: it belongs to the layer's
  // cross-core reduction.
  virtual void record(const InstructionRecord& r, bool in_reduction, Counters& c) const {}
  // Adds its sections to a layer's report row (any layer: the sparse verdict is kept on
  // layers other lowerings compute). `row` already has the common fields ("cycles",
  // "cores", "instructions", "macs", "end_cycle", "split").
  virtual void report(const Layer& l, const LayerTiling& t, const Counters& c, nlohmann::json& row) const {}

  // `npusim explain` (apps/cli/ExplainCommand.cpp). A lowering with an explanation is an
  // --engine choice, described by explain_help() and named in the command's description
  // by explain_target(); its explanation is built by the same mapping code the compiler uses.
  struct ExplainRequest {
    const HardwareConfig& hw;
    const ConvShape& layer;
    const LayerSparsity& zeros;
  };
  virtual std::string explain_help() const { return {}; }    // empty: not an --engine choice
  virtual std::string explain_target() const { return {}; }  // "the Wfold matrix unit"
  virtual std::string explain(const ExplainRequest& q) const { return {}; }
  // Without --engine: a lowering that claims the layer outright (as probe() does) wins;
  // else the first by rank that explains by default on this chip.
  virtual bool explain_claims(const ExplainRequest& q) const { return false; }
  virtual bool explains_by_default(const HardwareConfig& hw) const { return false; }
  // A line it adds before another lowering's explanation (the sparse verdict).
  virtual std::string explain_preamble(const ExplainRequest& q) const { return {}; }

  // Options it adds to `npusim run` (e.g. --matrix-model), applied to the loaded config
  // when given.
  struct CliOverride {
    std::string flag, help;
    std::vector<std::string> choices;
    std::function<void(HardwareConfig&, const std::string&)> apply;
  };
  virtual std::vector<CliOverride> overrides() const { return {}; }

  // Emission, through the shared EmitContext.
  // Its own state for one compiled workload (per-core vectors, DRAM slots), kept by the
  // EmitContext and reached with EmitContext::state(*this); none by default.
  virtual std::unique_ptr<LoweringState> make_state(const EmitContext& ctx) const;
  // It addresses its layers' tensors as one region each: no activation cut into the
  // rows each cluster takes, one copy of the weights.
  virtual bool whole_tensors() const { return false; }
  // DRAM of its own: after one of its layers' output is placed, and once every layer's
  // is (called on every lowering, by rank, so rank also fixes where those slots go).
  virtual void place_layer(EmitContext& ctx, CompiledLayer& c) const {}
  virtual void place_workload(EmitContext& ctx) const {}
  // Where layer `layer`'s weights are also stored, prepared outside the accelerator in a
  // form of the engine's own (the sparse cluster's weights compressed offline, seed001
  // ¶203-205): the DRAM of the flat compressed format's values and of its indices. None:
  // the weights are in DRAM only as the dense tensor.
  virtual std::optional<std::pair<std::uint64_t, std::uint64_t>> offline_weights(const EmitContext& ctx,
                                                                                 std::size_t layer) const {
    return std::nullopt;
  }
  // Whether layer `layer`'s output sits in DRAM as the dense tensor a run may dump (not
  // when the lowering stores it in another form, such as compressed).
  virtual bool dense_output(const EmitContext& ctx, std::size_t layer) const { return true; }
  // The tiles of the current layer that its cores share (default: image-major bands),
  // and the passes over them (default: one per weight block).
  virtual std::uint64_t tiles(const EmitContext& ctx) const;
  virtual std::uint32_t passes(const EmitContext& ctx) const;
  // Every layer's start, whichever lowering takes it: for state that spans layers.
  virtual void see_layer(EmitContext& ctx) const {}
  // One of its layers starts (its tiles dealt to the cores).
  virtual void start_layer(EmitContext& ctx) const {}
  // Tile `tile` of the current layer on `core`, in the current step.
  virtual void emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const = 0;
  // Every core has emitted its tile of the step.
  virtual void end_step(EmitContext& ctx) const {}

 private:
  std::string name_;
  int rank_;
};

// Adds a lowering; a second one of the same name is a programming error (throws).
// Runs from static initialisers, so it looks nothing else up.
bool register_lowering(std::unique_ptr<Lowering> lowering);
// The lowering of that name; throws std::logic_error when none is registered.
const Lowering& lowering(const std::string& name);
// nullptr when none is registered under that name.
const Lowering* find_lowering(const std::string& name);
// Every registered lowering, by rank.
std::vector<const Lowering*> lowerings();

}  // namespace npusim

// Registers one lowering from its own .cpp (the library is an object library, so the
// linker keeps the static initialiser).
#define NPUSIM_REGISTER_LOWERING(Class)                                                   \
  namespace {                                                                             \
  const bool NPUSIM_UNIQUE_NAME(kLoweringRegistered) = ::npusim::register_lowering(std::make_unique<Class>()); \
  }
