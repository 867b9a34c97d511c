#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

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

// Write after write on a live value: `retired` are writers that already finished
// while an instruction earlier in program order was still unfinished. If
// `incoming` comes before one of them and reads bytes that writer overwrote before
// `incoming` read them, the value `incoming` needed (the earlier write) was
// clobbered; throws InputError naming the overwriting and the reading instruction.
void check_clobbered(const Progress& incoming, const std::vector<Progress>& retired);

}  // namespace npusim
