#include <iostream>

#include <CLI/CLI.hpp>

#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "sim/config/ConfigLoader.h"
#include "sim/trace/TraceReader.h"

namespace npusim {

namespace {

struct ValidateOptions {
  std::string file;
  std::string config = "configs/default.json";
};

void validate(const ValidateOptions& opt) {
  if (looks_like_trace(opt.file)) {
    HardwareConfig hw = load_hardware_config(bundled_file(opt.config));
    std::uint64_t count = validate_trace(opt.file, hw);
    std::cout << opt.file << ": valid trace, " << count << " instructions (checked against "
              << display_name(opt.config) << ")\n";
    return;
  }
  HardwareConfig hw = load_hardware_config(opt.file);
  std::cout << resolved_config_json(hw).dump(2) << "\n";
}

}  // namespace

void add_validate_command(CLI::App& app) {
  auto opt = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand("validate", "Check a hardware config or an instruction trace");
  cmd->add_option("file", opt->file, "A config (.json) or a trace (.jsonl)")->required();
  cmd->add_option("-c,--config", opt->config, "Config a trace is checked against (capacities, cores, engines)")
      ->capture_default_str();
  cmd->footer(
      "\nFor a config, prints the fully resolved JSON (every key, defaults filled in).\n"
      "For a trace, reads every line and reports the first problem with its line and field.\n"
      "\nExamples:\n"
      "  npusim validate configs/numa-2x2.json\n"
      "  npusim validate traces/examples/multicore.jsonl --config configs/smp-2x2.json");
  cmd->callback([opt] { validate(*opt); });
}

}  // namespace npusim
