#pragma once

namespace CLI {
class App;
}

#include <string>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <iosfwd>
#include <vector>

#include "apps/compiler/planning/SplitPlanner.h"
#include "apps/frontend/WorkloadReader.h"
#include "apps/frontend/onnx/OnnxCalibration.h"

namespace npusim {

// Exit statuses of the npusim binary.
enum ExitStatus : int {
  kExitOk = 0,
  kExitDifference = 1,   // `diff` found a change beyond tolerance
  kExitBadInput = 2,     // anything the user gave us is wrong
  kExitInternal = 3,     // a bug in npusim
};

int run_cli(int argc, char** argv);

// --split and --split-strategies of run and compile (docs/workload-format.md, splitting).
// --split-trial-seconds too: each --split auto trial's time limit.
void add_split_options(CLI::App& cmd, std::string& split, std::string& strategies, double& trial_seconds);
SplitOptions split_options(const std::string& split, const std::string& strategies, double trial_seconds);
// --load-order and --compute-unit of run and compile (docs/load-orders.md), applied to the
// options split_options() made, whose trials (with the same time limit) they use.
void add_load_order_options(CLI::App& cmd, std::string& order, std::string& unit);
void apply_load_order_options(SplitOptions& options, const std::string& order, const std::string& unit);

// --input-shape of run, compile and validate (ONNX models with dynamic dimensions).
void add_input_shape_option(CLI::App& cmd, std::vector<std::string>& shapes);
WorkloadOptions workload_options(const std::vector<std::string>& shapes, bool functional);
// --calibrate N and --calibration-seed S of run and compile (docs/workload-format.md,
// "Calibrated scales").
struct CalibrateOptions {
  int inputs = 0;  // 0: the fixed rules
  std::uint64_t seed = 1;
};
void add_calibrate_options(CLI::App& cmd, CalibrateOptions& c);
// With --calibrate, the ONNX model's calibration, its exponents put into `options`; else nullopt.
std::optional<Calibration> calibrate(const std::string& path, const CalibrateOptions& c, WorkloadOptions& options);
// What an import approximated (Workload::notes), one "note:" line each.
void print_workload_notes(const Workload& w, std::ostream& out);

// Options several commands share, with their usual help text.
void add_config_option(CLI::App& cmd, std::string& config, const std::string& help = "Hardware config (JSON)");
void add_quiet_flag(CLI::App& cmd, bool& quiet, const std::string& help = "Print nothing on success");
// The end of a command's --help: what it does and writes (paragraphs apart by a blank line),
// then its examples, one a line.
void set_help_footer(CLI::App& cmd, const std::string& about, std::initializer_list<const char*> examples);

// One function per subcommand file; each adds itself to the app.
void add_run_command(CLI::App& app);
void add_validate_command(CLI::App& app);
void add_explain_command(CLI::App& app);
void add_compile_command(CLI::App& app);
void add_diff_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_explore_command(CLI::App& app);

}  // namespace npusim
