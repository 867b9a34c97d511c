#pragma once
#include <cstddef>
#include <string>

#include "apps/sweep/SweepSpec.h"

namespace npusim {

struct SweepOptions {
  std::string out;            // DIR: DIR/points/<name>/ and DIR/results.csv
  unsigned jobs = 1;          // simulations at once
  bool show_progress = false;
};

struct SweepCounts {
  std::size_t points = 0;
  std::size_t run = 0;      // simulated by this invocation
  std::size_t skipped = 0;  // complete from an earlier invocation (resume)
  std::size_t failed = 0;   // invalid config or a failed simulation
};

// Runs every point not already complete, each as a child `npusim run`, at most
// `jobs` at once, then rewrites DIR/results.csv atomically from all point
// directories. A failing point becomes a failed row; it never stops the sweep.
SweepCounts run_sweep(const SweepSpec& spec, const SweepOptions& options);

}  // namespace npusim
