#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npusim {

class EmitContext;
class LoweringState;
struct CompiledLayer;

// How layers become instructions on one engine: the compiler-side twin of an engine's
// registration (models/engine/EngineRegistry.h). Each engine that computes layers has one
// Lowering, in apps/compiler/lower_<name>/, registered with NPUSIM_REGISTER_LOWERING; the
// compiler, `explain` and the run report reach it by name (LayerTiling::engine), so no
// shared file names an engine. The name is the engine a layer's tiling names: matrix,
// vector, shader, sparse, or dma (concat: data movement only).
class Lowering {
 public:
  virtual ~Lowering() = default;
  virtual std::string name() const = 0;
  // The order lowerings are tried and listed in (placement, --engine choices, help):
  // lower first. Ranks are fixed numbers, never link or registration order.
  virtual int rank() const = 0;

  // ---- Planning, the per-layer report section, explain, CLI overrides ----

  // ---- Emission (EmitContext) ----
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
  const bool kLoweringRegistered = ::npusim::register_lowering(std::make_unique<Class>()); \
  }
