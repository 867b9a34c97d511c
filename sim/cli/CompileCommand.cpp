#include <filesystem>
#include <iostream>
#include <fstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sim/cli/BundledFiles.h"
#include "sim/cli/Cli.h"
#include "sim/common/InputError.h"
#include "sim/compiler/TraceEmitter.h"
#include "sim/compiler/TraceWriter.h"
#include "sim/compiler/WorkloadReader.h"
#include "sim/config/ConfigLoader.h"

namespace npusim {

namespace {

struct CompileOptions {
  std::string config = "configs/default.json";
  std::string workload;
  std::string trace;
  bool quiet = false;
};

void compile(const CompileOptions& opt) {
  const HardwareConfig hw = load_hardware_config(bundled_file(opt.config));
  const Workload workload = read_workload(bundled_file(opt.workload));
  TraceEmitter emitter(workload, hw);
  const std::string dir = std::filesystem::path(opt.trace).parent_path().string();
  // Streamed to a temporary file and renamed: memory stays flat and a failed compile
  // leaves no half trace behind.
  const std::string temp = opt.trace + ".partial";
  std::uint64_t count = 0;
  {
    std::ofstream text(temp, std::ios::binary | std::ios::trunc);
    if (!text) throw InputError(opt.trace, "", "cannot write the trace file");
    text << header_line(emitter.header(), dir.empty() ? "." : dir).dump() << '\n';
    Instruction inst;
    while (emitter.next(inst)) {
      text << instruction_line(inst).dump() << '\n';
      ++count;
    }
    if (!text.flush()) {
      std::filesystem::remove(temp);
      throw InputError(opt.trace, "", "writing the trace file failed");
    }
  }
  std::filesystem::rename(temp, opt.trace);
  if (opt.quiet) return;
  std::cout << fmt::format("{}: {} layers, batch {}, {} instructions -> {}\n", display_name(opt.workload),
                           workload.layers.size(), workload.batch, count, opt.trace);
  for (const auto& c : emitter.layers())
    std::cout << fmt::format("  {:<24} {:<9} rows/band {:>3}  bands {:>3}  buffers {}  co blocks {:>2} x {}\n",
                             c.layer.name, layer_kind_name(c.layer.kind), c.tiling.rows, c.tiling.bands,
                             c.tiling.buffers, c.tiling.co_blocks, c.tiling.co_block);
}

}  // namespace

void add_compile_command(CLI::App& app) {
  auto opt = std::make_shared<CompileOptions>();
  CLI::App* cmd = app.add_subcommand("compile", "Compile a workload (JSON or SCALE-Sim CSV) into an instruction trace");
  cmd->add_option("-c,--config", opt->config, "Hardware config (JSON)")->capture_default_str();
  cmd->add_option("-w,--workload", opt->workload, "Workload: JSON (docs/workload-format.md) or a SCALE-Sim .csv")
      ->required();
  cmd->add_option("-o,--out", opt->trace, "Trace to write (JSON Lines)")->required();
  cmd->add_flag("-q,--quiet", opt->quiet, "Print nothing on success");
  cmd->footer(
      "\nTiles every layer to the config's NRAM/WRAM, splits the bands across its cores and\n"
      "writes LOAD / CONV / vector / STORE instructions with staged dependencies.\n"
      "\nExamples:\n"
      "  npusim compile --workload traces/workloads/resnet50.json -o resnet50.jsonl\n"
      "  npusim compile --config configs/smp-2x2.json --workload traces/workloads/scale-sim-example.csv -o t.jsonl");
  cmd->callback([opt] { compile(*opt); });
}

}  // namespace npusim
