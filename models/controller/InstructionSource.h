#pragma once
#include "sim/trace/Instruction.h"

namespace npusim {

// Where the controller fetches instructions from: a trace file being streamed,
// or a compiler emitting them on the fly.
class InstructionSource {
 public:
  virtual ~InstructionSource() = default;
  // Fills `out` with the next instruction; false when there are no more.
  virtual bool next(Instruction& out) = 0;
};

}  // namespace npusim
