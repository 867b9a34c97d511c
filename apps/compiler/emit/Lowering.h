#pragma once
#include <memory>
#include <string>
#include <vector>

namespace npusim {

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
