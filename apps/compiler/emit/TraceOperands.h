#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/compiler/emit/DramPlacement.h"
#include "sim/trace/Instruction.h"
#include "sim/trace/OpCatalog.h"

namespace npusim {

// Building blocks of the instructions the compiler emits (the EmitContext and the lowerings).

inline TensorOperand tensor(AddressSpace space, std::uint64_t offset, std::vector<std::uint64_t> shape, DType dtype) {
  TensorOperand t;
  t.space = space;
  t.offset = offset;
  t.shape = std::move(shape);
  t.dtype = dtype;
  return t;
}

inline std::vector<std::uint64_t> nhwc(std::uint64_t n, std::uint64_t h, std::uint64_t w, std::uint64_t c) {
  return {n, h, w, c};
}

// Appends a dependency `inst` does not have yet.
inline void add_dependency(Instruction& inst, std::uint64_t id, DependencyMode mode) {
  Dependency d;
  d.producer = id;
  d.mode = mode;
  if (mode == DependencyMode::Staged) d.granularity = "rows";
  inst.deps.push_back(d);
}

inline void depend(Instruction& inst, std::int64_t id, DependencyMode mode = DependencyMode::Full) {
  if (id < 0) return;
  for (const auto& d : inst.deps)
    if (d.producer == std::uint64_t(id)) return;
  add_dependency(inst, std::uint64_t(id), mode);
}

// depend() (full) on each of `ids` in turn, without depend()'s scan of every dependency for
// each: a read of a layer stored by many stores depends on thousands of writers.
inline void depend_on_each(Instruction& inst, const std::vector<std::uint64_t>& ids) {
  std::vector<std::uint64_t> known;  // sorted producers so far
  known.reserve(inst.deps.size() + ids.size());
  for (const auto& d : inst.deps) known.push_back(d.producer);
  std::sort(known.begin(), known.end());
  for (std::uint64_t id : ids) {
    auto at = std::lower_bound(known.begin(), known.end(), id);
    if (std::int64_t(id) < 0 || (at != known.end() && *at == id)) continue;
    known.insert(at, id);
    add_dependency(inst, id, DependencyMode::Full);
  }
}

// An instruction of `op` on `core`, on the engine the op catalogue runs it on, so the
// compiler never names an engine for an op.
inline Instruction make_op(const std::string& op, std::uint32_t core) {
  const OpSpec* spec = find_op(op);
  if (!spec) throw std::logic_error("compiler: no op '" + op + "' is registered");
  Instruction i;
  i.op = op;
  i.engine = spec->engine;
  i.core = core;
  return i;
}

// A compressed tensor in DRAM (docs/trace-format.md): `capacity` int8 values, then as
// many int32 indices.
struct PackedRegion {
  std::uint64_t values = 0, indices = 0, capacity = 0;
  static std::uint64_t bytes(std::uint64_t capacity) { return dram_aligned(capacity) + dram_aligned(4 * capacity); }
  PackedRegion(std::uint64_t offset, std::uint64_t cap) : values(offset), indices(offset + dram_aligned(cap)), capacity(cap) {}
  std::vector<TensorOperand> operands() const {
    return {tensor(AddressSpace::Dram, values, {capacity}, DType::Int8),
            tensor(AddressSpace::Dram, indices, {capacity}, DType::Int32)};
  }
};

}  // namespace npusim
