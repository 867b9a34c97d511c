#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "sim/common/Cycles.h"

namespace npusim {

// How the master circuit reads the first storage circuit (NRAM) to form data rows, counted in
// requests as seed000 §3.4 counts them, and what that costs on its read port (rule 1a of
// docs/fidelity.md). The counts are part of the mapping: the fast model and the cycle-stepped
// reference both take them from here and time them each their own way.

// NRAM requests one read of `bytes` contiguous bytes takes: a seed request wider than the
// port's request_bytes is split (¶103 allows "several requests").
std::uint64_t ram_requests_for(std::uint32_t bytes, const MatrixUnitConfig& cfg);

// The reads of one first-buffer window: `rows` data rows of Pci block `block`.
struct WindowReads {
  std::uint64_t ram_requests = 0;  // NRAM requests (each at most request_bytes)
  std::uint64_t relay_writes = 0;  // of them, written into the relay (block 0 in relay mode)
  std::uint64_t relay_rows = 0;    // data rows read out of the relay's registers
};
WindowReads window_reads(const WfoldPlan& p, const MatrixUnitConfig& cfg, std::uint64_t rows, std::uint32_t block);
// The same window read another way (`explain` compares strided reads with the relay).
WindowReads window_reads_as(DataRowRead mode, const WfoldPlan& p, const MatrixUnitConfig& cfg, std::uint64_t rows,
                            std::uint32_t block);

// Cycles the master's NRAM read port spends on them: a request takes request_cycles (the slower
// of that and the relay write when it goes into the relay).
Cycles nram_read_cycles(const WindowReads& r, const MatrixUnitConfig& cfg);
// Cycles the relay's own read port spends on them: read_cycles per data row. It reads a window's
// rows after that window's NRAM requests into it, while the NRAM port goes on (README "Requests").
Cycles relay_read_cycles(const WindowReads& r, const MatrixUnitConfig& cfg);
// Both, for `explain` and the golden tests' sequences (the accesses one after another).
Cycles window_read_cycles(const WindowReads& r, const MatrixUnitConfig& cfg);

// One access of the master's read port while forming one W group (Ws positions, all Bci data
// rows, Fig. 7a-7c), for the golden tests and `explain`.
struct TimedRead {
  enum class Kind { Ram, RelayRow };
  Kind kind = Kind::Ram;
  std::uint64_t offset = 0;      // NRAM byte offset from the group's first position (Ram)
  std::uint32_t bytes = 0;       // bytes it places: a Pci slice, Ws*Pci for a row, or ci' into the relay
  std::uint32_t zero_bytes = 0;  // of them, Pci alignment zeros inserted on the way (¶106, ¶109)
  bool into_relay = false;
  std::uint32_t row = 0;         // data row (Pci block) it serves; all rows for a relay fill
  Cycles start = 0, end = 0;     // on the master's read port, from the group's start
};
std::vector<TimedRead> group_read_sequence(const WfoldPlan& p, const MatrixUnitConfig& cfg);

// One tile's load path read `mode`'s way: its windows' NRAM requests, relay rows and read-port
// cycles (every tile reads alike: the reads do not depend on the co round).
struct TileReads {
  std::uint64_t ram_requests = 0, relay_rows = 0;
  Cycles nram_cycles = 0, relay_cycles = 0;  // on the NRAM read port and on the relay's read port
};
TileReads tile_reads_as(DataRowRead mode, const WfoldPlan& p, const MatrixUnitConfig& cfg);

}  // namespace npusim
