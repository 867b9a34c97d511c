#include "apps/simulation/LayerTrial.h"

#include <sys/wait.h>
#include <unistd.h>

#include "apps/compiler/TraceEmitter.h"
#include "models/chip/Chip.h"
#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"

namespace npusim {

namespace {

// The child's whole life: build the chip for the one layer, run it, write its cycles to
// `fd`. Never returns; _exit skips the parent's buffered output and exit handlers.
[[noreturn]] void run_trial(int fd, const Workload& one_layer, const HardwareConfig& hw, const SplitOptions& options) {
  int status = 3;
  try {
    TraceEmitter emitter(one_layer, hw, options);
    Chip chip("trial", hw, false, emitter, [](const InstructionRecord&) {});
    chip.scoreboard().scheduling().set_override(hw.core.controller.dependency_mode);
    sc_core::sc_start();
    rethrow_process_failure();
    LayerFigures figures;
    figures.cycles = chip.collect_stats(now_cycles()).total_cycles;
    for (std::size_t i = 0; i < emitter.layers().size(); ++i)
      for (std::size_t k = 0; k < emitter.traffic(i).dram_local.size(); ++k)
        figures.dram_bytes += emitter.traffic(i).dram_local[k] + emitter.traffic(i).dram_remote[k];
    if (chip.scoreboard().in_flight() == 0 && write(fd, &figures, sizeof figures) == sizeof figures) status = 0;
  } catch (...) {
  }
  _exit(status);
}

}  // namespace

std::optional<std::uint64_t> simulate_layer_trial(const Workload& one_layer, const HardwareConfig& hw,
                                                  const SplitOptions& options) {
  const auto figures = simulate_layer_figures(one_layer, hw, options);
  return figures ? std::optional<std::uint64_t>(figures->cycles) : std::nullopt;
}

std::optional<LayerFigures> simulate_layer_figures(const Workload& one_layer, const HardwareConfig& hw,
                                                   const SplitOptions& options) {
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    run_trial(fds[1], one_layer, hw, options);
  }
  close(fds[1]);
  LayerFigures figures;
  const bool got = child > 0 && read(fds[0], &figures, sizeof figures) == sizeof figures;
  close(fds[0]);
  int status = 0;
  if (child > 0) waitpid(child, &status, 0);
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return figures;
}

}  // namespace npusim
