#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/scoreboard/Progress.h"

namespace npusim {

// The writers the checker can still see: those in flight, and finished ones the
// scoreboard keeps because an unpublished instruction may yet read what they
// overwrote, or may yet need the value they wrote (see Scoreboard::retire).
struct KnownWriters {
  const std::unordered_map<std::uint64_t, Progress>& in_flight;
  const std::vector<Progress>& retired;  // without steps: only what they wrote, and when
};

// The run-time safety net of the dependency modes. `incoming` has just been
// scheduled; against every other instruction still in flight it checks, byte
// range by byte range:
//  - read after write: no step of `incoming` reads bytes an earlier instruction
//    has not made final by the time the step reads them, and no later
//    instruction already read bytes `incoming` writes before it wrote them;
//  - write after read: `incoming` overwrites no bytes an earlier instruction
//    (e.g. a store that released its bus early) is still reading;
//  - write after write on a live value: no later instruction, already finished,
//    overwrote bytes `incoming` reads before it read them, i.e. the value of the
//    earlier writer that `incoming` needed was clobbered.
// A violation means the trace declared a dependency too weak for the data
// actually shared; it throws InputError naming the instructions involved: the
// overwriting one, the reader and, while the scoreboard knows it, the writer of
// the value the reader lost.
void check_hazards(const Progress& incoming, const KnownWriters& known);

// The span `p`'s steps read in each memory: check_hazards expects every reader it sees
// to carry them (Progress::read_extents).
std::vector<ReadExtent> read_extents_of(const Progress& p);

}  // namespace npusim
