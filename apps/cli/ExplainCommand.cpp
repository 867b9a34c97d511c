#include <iostream>

#include <CLI/CLI.hpp>

#include "models/matrix_unit/ConvShape.h"
#include "models/matrix_unit/Explain.h"
#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "sim/config/ConfigLoader.h"

namespace npusim {

namespace {
struct ExplainOptions {
  std::string config = "configs/default.json";
  std::string layer;
};
}  // namespace

void add_explain_command(CLI::App& app) {
  auto opt = std::make_shared<ExplainOptions>();
  CLI::App* cmd = app.add_subcommand("explain", "Show how one conv layer maps onto the Wfold matrix unit");
  cmd->add_option("-c,--config", opt->config, "Hardware config (JSON)")->capture_default_str();
  cmd->add_option("-l,--layer", opt->layer,
                  "Layer, as key=value pairs: hi wi ci co kh kw (required); n, sh sw or stride, "
                  "pad=P or pad=T,B,L,R, dtype=int8|float32 (optional)")
      ->required();
  cmd->footer(
      "\nPrints the derived Pci, Ws, Bci, Aco, kmax, the loop counts Nco/Nkw/Nkh/Nci, the tiling,\n"
      "the stride transform, reuse factors, the MAC breakdown and the cycle estimate. The numbers\n"
      "come from the same mapping code the simulator and the compiler use.\n"
      "\nExamples:\n"
      "  npusim explain --layer hi=56,wi=56,ci=64,co=64,kh=3,kw=3,pad=1\n"
      "  npusim explain --layer hi=224,wi=224,ci=3,co=64,k=7,stride=2,pad=3\n"
      "  npusim explain --config configs/numa-2x2.json --layer hi=14,wi=14,ci=48,co=32,k=3");
  cmd->callback([opt] {
    HardwareConfig hw = load_hardware_config(bundled_file(opt->config));
    std::cout << explain_conv_layer(hw, parse_conv_spec(opt->layer));
  });
}

}  // namespace npusim
