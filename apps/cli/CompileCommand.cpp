#include <filesystem>
#include <iostream>
#include <fstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "apps/simulation/LayerTrial.h"
#include "sim/common/InputError.h"
#include "apps/compiler/TraceEmitter.h"
#include "apps/compiler/TraceWriter.h"
#include "apps/frontend/WorkloadReader.h"
#include "sim/config/ConfigLoader.h"
#include "sim/common/AtomicFile.h"
#include "sim/report/OutputOwnership.h"
#include "sim/report/PlaceLock.h"

namespace npusim {

namespace {

struct CompileOptions {
  std::string config = "configs/default.json";
  std::string workload;
  std::string trace;
  bool quiet = false;
  bool overwrite = false;
  std::string split;  // empty: the workload's, else auto
  std::string split_strategies;
  double split_trial_seconds = kDefaultTrialSeconds;  // each --split auto trial's limit
  std::string load_order, compute_unit;  // empty: ws, unreported
  std::vector<std::string> input_shapes;
  CalibrateOptions calibration;
};

// compile -o replaces an existing file only when it is a trace npusim wrote, or
// when the user says --overwrite; never a directory, device or link.
void check_trace_target(const CompileOptions& opt) {
  namespace fs = std::filesystem;
  if (opt.trace.empty() || !fs::path(opt.trace).has_filename())
    throw InputError(opt.trace, "-o", "give the path of the trace file to write, e.g. -o net.jsonl");
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(opt.trace, ec);
  if (!fs::exists(st)) return;
  std::string why;
  if (!fs::is_regular_file(st))
    why = fs::is_directory(st) ? "it is a directory" : fs::is_symlink(st) ? "it is a symbolic link"
                                                                          : "it is a device, pipe or socket";
  else if (!opt.overwrite && !is_npusim_trace(opt.trace))
    why = "it is an existing file that npusim compile did not write (pass --overwrite to replace it anyway)";
  if (!why.empty())
    throw InputError(opt.trace, "-o", why + "; npusim never replaces what it did not write: choose another path, "
                                             "or move or delete it yourself");
}

void compile(const CompileOptions& opt) {
  check_trace_target(opt);
  // One compile into one file at a time; a killed one's temporaries go.
  const PlaceLock::Handle claim = PlaceLock::claim(opt.trace, opt.trace, "-o");
  remove_leftover_files(opt.trace);
  check_trace_target(opt);
  const HardwareConfig hw = load_hardware_config(bundled_file(opt.config));
  WorkloadOptions options = workload_options(opt.input_shapes, false);
  const std::optional<Calibration> calibration = calibrate(bundled_file(opt.workload), opt.calibration, options);
  const Workload workload = read_workload(bundled_file(opt.workload), options);
  if (!opt.quiet) print_workload_notes(workload, std::cout);
  if (calibration && !opt.quiet)  // no report here: the trace's shifts carry the scales
    std::cout << "note: " << workload.file << ": calibrated scales for " << calibration->exponents.size()
              << " tensors from " << calibration->inputs << " inputs (seed " << calibration->seed
              << "); `npusim run --calibrate` lists them in its report\n";
  SplitOptions split = split_options(opt.split, opt.split_strategies, opt.split_trial_seconds);
  apply_load_order_options(split, opt.load_order, opt.compute_unit);
  TraceEmitter emitter(workload, hw, split);
  const std::string dir = std::filesystem::path(opt.trace).parent_path().string();
  TraceHeader header = emitter.header();
  // A weights directory this compile creates goes again if the compile fails.
  const std::filesystem::path data_dir = opt.trace + ".data";
  std::error_code ec;
  const bool data_dir_existed = std::filesystem::exists(std::filesystem::symlink_status(data_dir, ec));
  std::uint64_t count = 0;
  try {
    save_carried_inputs(header, opt.trace);
    // Streamed to a unique temporary file and renamed: memory stays flat and a failed
    // compile leaves no half trace behind.
    AtomicFile text(opt.trace);
    text.write(header_line(header, dir.empty() ? "." : dir).dump() + '\n');
    Instruction inst;
    while (emitter.next(inst)) {
      text.write(instruction_line(inst).dump() + '\n');
      ++count;
    }
    text.commit();
  } catch (...) {
    if (!data_dir_existed && has_marker(data_dir, OutputKind::TraceData)) std::filesystem::remove_all(data_dir, ec);
    throw;
  }
  if (opt.quiet) return;
  std::cout << fmt::format("{}: {} layers, batch {}, {} instructions -> {}\n", display_name(opt.workload),
                           workload.layers.size(), workload.batch, count, opt.trace);
  for (const auto& c : emitter.layers())
    std::cout << fmt::format("  {:<24} {:<9} {:<8} rows/band {:>3}  bands {:>3}  buffers {}  co blocks {:>2} x {}\n",
                             c.layer.name, layer_kind_name(c.layer.kind), parallel_mode_name(c.tiling.split),
                             c.tiling.rows, c.tiling.bands, c.tiling.buffers, c.tiling.co_blocks, c.tiling.co_block);
}

}  // namespace

void add_compile_command(CLI::App& app) {
  auto opt = std::make_shared<CompileOptions>();
  CLI::App* cmd = app.add_subcommand("compile", "Compile a workload (JSON, SCALE-Sim CSV or ONNX) into an instruction trace");
  add_config_option(*cmd, opt->config);
  cmd->add_option("-w,--workload", opt->workload, "Workload: JSON (docs/workload-format.md), a SCALE-Sim .csv or an ONNX model; "
                  "an ONNX model's weights are written to OUT.data/*.npy")
      ->required();
  cmd->add_option("-o,--out", opt->trace, "Trace to write (JSON Lines)")->required();
  add_quiet_flag(*cmd, opt->quiet);
  cmd->add_flag("--overwrite", opt->overwrite,
                "Replace an existing file at -o even if `compile` did not write it (a trace `compile` wrote "
                "is replaced without it; directories, devices and links never are)");
  add_split_options(*cmd, opt->split, opt->split_strategies, opt->split_trial_seconds);
  add_load_order_options(*cmd, opt->load_order, opt->compute_unit);
  add_input_shape_option(*cmd, opt->input_shapes);
  add_calibrate_options(*cmd, opt->calibration);
  set_help_footer(*cmd,
                  "Tiles every layer to the config's NRAM/WRAM, splits the bands across its cores and\n"
                  "writes LOAD / CONV / vector / STORE instructions with staged dependencies.",
                  {"npusim compile --workload traces/workloads/resnet50.json -o resnet50.jsonl",
                   "npusim compile --config configs/smp-2x2.json --workload traces/workloads/scale-sim-example.csv "
                   "-o t.jsonl",
                   "npusim compile --workload resnet18.onnx --calibrate 8 -o r18.jsonl   (calibrated scales)"});
  cmd->callback([opt] { compile(*opt); });
}

}  // namespace npusim
