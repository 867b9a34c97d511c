#include "apps/simulation/LayerTrial.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include <fmt/format.h>

#include "apps/compiler/TraceEmitter.h"
#include "apps/compiler/tiling/LayerTiler.h"
#include "models/chip/Chip.h"
#include "models/kernel/ProcessFailure.h"
#include "models/kernel/SimTime.h"
#include "sim/common/ForkedChild.h"
#include "sim/common/InputError.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace {

// The child's whole life: build the chip for the one layer, run it, write its figures to
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

// Waits for the child's figures until `seconds` have passed; false at the limit.
bool read_in_time(int fd, LayerFigures& figures, double seconds, bool& got) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  pollfd p{fd, POLLIN, 0};
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    const int ready = poll(&p, 1, int(std::min<long long>(left, 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline is looked at again
    got = ready > 0 && read(fd, &figures, sizeof figures) == sizeof figures;
    return true;
  }
}

}  // namespace

std::optional<std::uint64_t> simulate_layer_trial(const Workload& one_layer, const HardwareConfig& hw,
                                                  const SplitOptions& options, double seconds) {
  const auto figures = simulate_layer_figures(one_layer, hw, options, seconds);
  return figures ? std::optional<std::uint64_t>(figures->cycles) : std::nullopt;
}

std::optional<LayerFigures> simulate_layer_figures(const Workload& one_layer, const HardwareConfig& hw,
                                                   const SplitOptions& options, double seconds) {
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child == 0) {
    tie_child_to_parent(parent);
    close(fds[0]);
    run_trial(fds[1], one_layer, hw, options);
  }
  close(fds[1]);
  // Interrupted while the trial runs: the watcher ends it before npusim exits.
  const OnInterrupt stop_trial("", [child] { if (child > 0) kill(child, SIGKILL); });
  LayerFigures figures;
  bool got = false;
  const bool in_time = child < 0 || read_in_time(fds[0], figures, seconds, got);
  close(fds[0]);
  int status = 0;
  if (child > 0 && !in_time) kill(child, SIGKILL);
  if (child > 0) waitpid(child, &status, 0);
  // The layer is the workload's; the limit is the command line's, named in the reason.
  if (!in_time)
    throw InputError(one_layer.file, layer_place(one_layer.layers.front()),
                     fmt::format("--split auto: a trial ran over its {} s (--split-trial-seconds); raise the limit, "
                                 "or force a split (--split data, model-co, model-ci or model)",
                                 seconds));
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return figures;
}

void use_simulated_trials(SplitOptions& options, double seconds) {
  options.trial = [seconds](const Workload& one, const HardwareConfig& hw, const SplitOptions& forced) {
    return simulate_layer_trial(one, hw, forced, seconds);
  };
  options.figures = [seconds](const Workload& one, const HardwareConfig& hw, const SplitOptions& forced) {
    return simulate_layer_figures(one, hw, forced, seconds);
  };
}

}  // namespace npusim
