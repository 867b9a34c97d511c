#pragma once
#include <cstdint>
#include <unordered_map>

#include "models/controller/Progress.h"

namespace npusim {

// The run-time safety net of the dependency modes. `incoming` has just been
// scheduled; against every other instruction still in flight it checks, byte
// range by byte range:
//  - read after write: no step of `incoming` reads bytes an earlier instruction
//    has not made final by the time the step reads them, and no later
//    instruction already read bytes `incoming` writes before it wrote them;
//  - write after read: `incoming` overwrites no bytes an earlier instruction
//    (e.g. a store that released its bus early) is still reading.
// A violation means the trace declared a dependency too weak for the data
// actually shared; it throws InputError naming both instructions.
void check_hazards(const Progress& incoming, const std::unordered_map<std::uint64_t, Progress>& in_flight);

}  // namespace npusim
