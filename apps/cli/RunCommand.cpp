#include <filesystem>
#include <iostream>
#include <map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "apps/simulation/LayerTrial.h"
#include "sim/common/InputError.h"
#include "apps/frontend/WorkloadReader.h"
#include "apps/simulation/WorkloadSimulation.h"
#include "sim/config/ConfigLoader.h"
#include "apps/simulation/runner/ProgressMeter.h"
#include "apps/simulation/runner/Simulation.h"
#include "apps/compiler/emit/Lowering.h"
#include "sim/report/OutputDirectory.h"
#include "sim/report/ReportContext.h"
#include "sim/report/RunRows.h"

namespace npusim {

namespace {

const char* const kRunsFolder = "runs";  // default run directories: runs/<name>-NNN

struct RunOptions {
  std::string config = "configs/default.json";
  std::string trace;     // one of trace / workload; neither = the bundled ResNet-50
  std::string workload;
  std::string out;
  bool functional = false;
  bool quiet = false;
  std::string dependency_mode;  // empty: the config's /core/controller/dependency_mode
  std::map<std::string, std::string> engine_options;  // each lowering's overrides(), by flag; empty: the config's
  std::string split;  // empty: the workload's, else auto
  std::string split_strategies;
  double split_trial_seconds = kDefaultTrialSeconds;  // each --split auto trial's limit
  std::string load_order, compute_unit;  // empty: ws, unreported
  std::vector<std::string> input_shapes;
  CalibrateOptions calibration;
  std::string rows;  // empty: by the run's size (RunRows.h)
};

// The engines' own options (e.g. --matrix-model), from their lowerings, by rank.
void add_engine_options(CLI::App& cmd, std::map<std::string, std::string>& values) {
  for (const Lowering* l : lowerings())
    for (const Lowering::CliOverride& o : l->overrides())
      cmd.add_option(o.flag, values[o.flag], o.help)->check(CLI::IsMember(o.choices));
}

void apply_engine_options(HardwareConfig& hw, const std::map<std::string, std::string>& values) {
  for (const Lowering* l : lowerings())
    for (const Lowering::CliOverride& o : l->overrides())
      if (!values.at(o.flag).empty()) o.apply(hw, values.at(o.flag));
}

void run_with(const RunOptions& opt);

// Without --out a run claims runs/<name>-NNN early (concurrent runs each get a number). If it
// is refused, it leaves no empty runs/ behind that it made itself (a non-empty one, or one
// another run is using, is left as it is: rmdir only removes an empty folder).
void run(const RunOptions& opt) {
  const bool made_runs = opt.out.empty() && !std::filesystem::exists(kRunsFolder);
  try {
    run_with(opt);
  } catch (...) {
    std::error_code ignored;
    if (made_runs) std::filesystem::remove(kRunsFolder, ignored);
    throw;
  }
}

void run_with(const RunOptions& opt) {
  SimulationRequest request;
  const std::string config_path = bundled_file(opt.config);
  request.hardware = load_hardware_config(config_path);
  if (!opt.dependency_mode.empty())
    request.hardware.core.controller.dependency_mode = nlohmann::json(opt.dependency_mode).get<DependencyRelease>();
  apply_engine_options(request.hardware, opt.engine_options);
  request.config_name = display_name(config_path);
  if (!opt.trace.empty() && !opt.workload.empty())
    throw InputError("", "run", "give either --trace or --workload, not both");
  const bool compile = opt.trace.empty();
  const std::string input =
      bundled_file(compile ? (opt.workload.empty() ? "traces/workloads/resnet50.json" : opt.workload) : opt.trace);
  request.trace_path = input;
  request.functional = opt.functional;
  // A default name is claimed now, so concurrent runs each get their own number.
  FreshRunDirectory fresh;
  if (opt.out.empty()) fresh = fresh_run_directory(kRunsFolder, std::filesystem::path(input).stem().string());
  request.out_dir = opt.out.empty() ? fresh.path : opt.out;
  request.show_progress = !opt.quiet && ProgressMeter::terminal_attached();
  request.summary = opt.quiet ? nullptr : &std::cout;
  if (!opt.rows.empty()) request.rows.asked = parse_row_detail(opt.rows);
  if (compile) {
    WorkloadOptions options = workload_options(opt.input_shapes, opt.functional);
    const std::optional<Calibration> calibration = calibrate(input, opt.calibration, options);
    if (calibration)
      request.annotate = [json = nlohmann::json::parse(calibration_json(*calibration))](const RunStats&,
                                                                                          ReportContext& ctx) {
        ctx.extra["calibration"] = json;
      };
    const Workload workload = read_workload(input, options);
    if (!opt.quiet) print_workload_notes(workload, std::cout);
    SplitOptions split = split_options(opt.split, opt.split_strategies, opt.split_trial_seconds);
    apply_load_order_options(split, opt.load_order, opt.compute_unit);
    simulate_workload(request, workload, split);
  } else {
    if (!opt.input_shapes.empty()) throw InputError("", "--input-shape", "is for --workload (an ONNX model), not --trace");
    if (opt.calibration.inputs) throw InputError("", "--calibrate", "is for --workload (an ONNX model), not --trace");
    simulate_trace(request);
  }
  if (!opt.quiet) std::cout << "\nrun directory: " << request.out_dir << "\n";
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto opt = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Simulate an instruction trace, or a workload compiled on the fly, on a hardware config");
  add_config_option(*cmd, opt->config);
  cmd->add_option("-t,--trace", opt->trace, "Instruction trace (JSON Lines)");
  cmd->add_option("-w,--workload", opt->workload,
                  "Workload to compile on the fly (JSON, a SCALE-Sim layer table .csv or an ONNX model .onnx); "
                  "default when neither --trace nor --workload is given: traces/workloads/resnet50.json");
  cmd->add_option("-o,--out", opt->out,
                  "Run directory to write, atomically; default: a fresh runs/<trace>-NNN. An existing one is "
                  "replaced only if npusim made it (a previous run); anything else is refused, never deleted");
  cmd->add_flag("-f,--functional", opt->functional,
                "Also compute real tensor values: load the trace's input .npy files, "
                "write its outputs to OUT/tensors/<name>.npy (workloads: every layer's output, NHWC)");
  add_quiet_flag(*cmd, opt->quiet, "Print nothing on success (no summary, no progress bar)");
  cmd->add_option("--dependency-mode", opt->dependency_mode,
                  "Force one dependency mode on every trace dependency (seed004); overrides "
                  "/core/controller/dependency_mode")
      ->check(CLI::IsMember(json_names(kDependencyReleases)));
  add_engine_options(*cmd, opt->engine_options);
  add_split_options(*cmd, opt->split, opt->split_strategies, opt->split_trial_seconds);
  add_load_order_options(*cmd, opt->load_order, opt->compute_unit);
  add_input_shape_option(*cmd, opt->input_shapes);
  add_calibrate_options(*cmd, opt->calibration);
  cmd->add_option("--rows", opt->rows,
                  fmt::format("Rows to write: all (every instruction and layer), layers (per-layer rows only) or "
                              "none; default: all up to {} instructions, layers above (the report says so)",
                              kInstructionRowLimit))
      ->check(CLI::IsMember({"none", "layers", "all"}));
  cmd->footer(
      "\nWrites OUT/report.json, OUT/instructions.csv and OUT/timeline.json (open it in\n"
      "https://ui.perfetto.dev), and prints a summary table. instructions.csv and report.json's\n"
      "instruction_rows are left out with --rows layers|none and, unless --rows all, above\n"
      "the instruction limit.\n"
      "\nExamples:\n"
      "  npusim run                      ResNet-50 (batch 1, 224x224) on configs/default.json\n"
      "  npusim run --workload traces/workloads/mobilenetv2.json --config configs/smp-2x2.json\n"
      "  npusim run --workload traces/workloads/tiny.json --functional --out runs/tiny\n"
      "  npusim run --workload resnet50.onnx --input-shape input=1x3x224x224   (scripts/export_onnx.py)\n"
      "  npusim run --workload resnet18.onnx --functional --calibrate 8   scales from 8 seeded random inputs\n"
      "  npusim run --config configs/smp-2x2.json --trace traces/examples/multicore.jsonl\n"
      "  npusim run --trace traces/examples/relu.jsonl --functional --out runs/relu\n"
      "  npusim run --workload traces/workloads/tiny.json --matrix-model cycle-stepped   the slow reference timing\n"
      "  npusim run --workload traces/workloads/vgg16.json --config configs/numa-4x4-cache.json --split model\n"
      "  npusim run --workload traces/workloads/vgg16.json --load-order auto   each layer's load order by simulation");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace npusim
