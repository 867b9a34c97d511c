#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/HardwareConfig.h"
#include "sim/trace/Instruction.h"

namespace npusim {

// What is wrong with an instruction, as found by an op's check: the field it is
// about ("outputs[0].shape", "params.stride") and why.
struct OpProblem {
  std::string field;
  std::string reason;
};

// One operand position of an op: what it is called in messages and which
// address spaces it may live in.
struct OperandSlot {
  std::string role;  // "ifmap", "weights", "source", ...
  std::vector<AddressSpace> spaces;
  bool pitched = false;  // may be a window of a wider tensor ("pitch"): the DMA's DRAM side
  bool remote = false;   // a cluster operand may name another cluster's cache ("cluster": k)
};

// Checks shapes, dtypes and param values once arity and spaces are known good.
using OpCheck = std::function<std::optional<OpProblem>(const Instruction&)>;
// Checks what the instruction asks of the hardware of the core it runs on (optional).
using OpHardwareCheck = std::function<std::optional<OpProblem>(const Instruction&, const CoreConfig&)>;

struct OpSpec {
  std::string name;
  std::string engine;                 // engine slot that executes the op
  std::vector<OperandSlot> inputs;    // one per input operand
  std::vector<OperandSlot> outputs;   // one per output operand
  std::vector<std::string> params;    // accepted keys of "params"
  OpCheck check;
  OpHardwareCheck hardware_check = nullptr;
};

// Adds an op, or replaces the one with the same name. Ops are looked up by name
// only, so a new op needs no change anywhere else in the trace reader. Each
// engine registers its own ops with itself (models/engine/EngineRegistry.h).
void register_op(OpSpec spec);
const OpSpec* find_op(const std::string& name);
std::vector<std::string> op_names();
// Every engine slot some registered op runs on.
std::vector<std::string> op_engine_names();

// Operands of one instruction must be the same region (an in-place op) or
// disjoint; a partial overlap means one tensor's bytes silently belong to
// another (a feature-map band loaded over the tail of a kernel). Checked for
// every instruction, whether it comes from a trace file or the compiler.
std::optional<OpProblem> operand_overlap(const Instruction& ins);

}  // namespace npusim
