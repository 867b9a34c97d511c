#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/common/Cycles.h"
#include "models/scoreboard/ReadRanges.h"
#include "sim/trace/Instruction.h"

namespace npusim {

// One step of an engine's work (a DMA segment, a vector chunk, a matrix tile)
// and when it actually read its inputs once scheduled.
struct ReadStep {
  ReadRanges reads;
  Cycles read_start = 0;
  Cycles read_done = 0;
};

// `bytes` of the output operand, counted from its start, are final at `at`.
struct ProgressPoint {
  Cycles at = 0;
  std::uint64_t bytes = 0;
};

// What an instruction publishes when it starts executing: the cycle every
// stage of its output becomes final (seed004 stage flags), the cycle it lets go
// of its source and bus (the two-phase end flag) and when it really ends.
// Times are computed up front by the engine, which books its ports analytically.
// The core an instruction runs on and that core's cluster: which NRAM/WRAM and
// which cluster cache its scratchpad and cluster operands name.
struct Viewpoint {
  std::uint32_t core = 0;
  std::uint32_t cluster = 0;
};

// The span of addresses an instruction's steps read in one memory (space, and the core
// or cluster whose it is): the hazard checker's first test, before it walks the steps.
struct ReadExtent {
  AddressSpace space = AddressSpace::Dram;
  std::uint32_t memory = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

struct Progress {
  std::uint64_t id = 0;
  Viewpoint at;
  std::string engine;                 // "core0.load"
  std::string kind;                   // "load", "vector", ...
  std::string op;
  std::string layer;                  // params.layer when the trace names one, else Scoreboard::layer_of's
  std::uint64_t line = 0;             // trace line, for messages
  std::vector<Dependency> deps;       // as resolved for this run
  Cycles start = 0;
  bool writes = false;                // false when the instruction has no output
  TensorOperand output;
  std::uint64_t tile_bytes = 0;       // the engine's own step: the "tiles" granule
  std::vector<ProgressPoint> written; // increasing in both fields
  std::vector<ReadStep> steps;
  std::vector<ReadExtent> read_extents;  // of `steps`, one per memory (Scoreboard::publish)
  std::uint64_t output_end = 0;          // output.end(), kept by Scoreboard::publish
  Cycles release = 0;
  Cycles done = 0;

  // Bytes of the output final at cycle `t`.
  std::uint64_t written_by(Cycles t) const;
  // First cycle at which at least `bytes` of the output are final.
  Cycles time_written(std::uint64_t bytes) const;
};

// True when the two operands can share bytes: same space, and for scratchpads
// the same core, for the cluster cache the same cluster.
bool same_memory(const TensorOperand& a, Viewpoint va, const TensorOperand& b, Viewpoint vb);
// Which memory of its space an operand seen from `v` names: 0 for DRAM, the cluster for a
// cluster cache, the core for its scratchpads (same_memory compares these).
std::uint32_t memory_of(const TensorOperand& t, Viewpoint v);

// Bytes of one granule of `granularity` along `shape`: "batch" and "channels"
// cut the outermost dimension (N of NHWC, Co of weights), "rows" the next one
// (H of NHWC); "tiles" is the producer engine's own step.
std::uint64_t granule_bytes(const TensorOperand& t, const std::string& granularity, std::uint64_t tile_bytes);

}  // namespace npusim
