#include <iostream>

#include <CLI/CLI.hpp>

#include "models/matrix_unit/ConvShape.h"
#include "models/matrix_unit/Explain.h"
#include "models/shader_core/Explain.h"
#include "apps/cli/BundledFiles.h"
#include "apps/cli/Cli.h"
#include "sim/config/ConfigLoader.h"

namespace npusim {

namespace {
struct ExplainOptions {
  std::string config = "configs/default.json";
  std::string layer;
  std::string engine;  // empty: the matrix unit when the chip has one, else the shader core
};
}  // namespace

void add_explain_command(CLI::App& app) {
  auto opt = std::make_shared<ExplainOptions>();
  CLI::App* cmd =
      app.add_subcommand("explain", "Show how one conv layer maps onto the Wfold matrix unit or a shader core");
  cmd->add_option("-c,--config", opt->config, "Hardware config (JSON)")->capture_default_str();
  cmd->add_option("-l,--layer", opt->layer,
                  "Layer, as key=value pairs: hi wi ci co kh kw (required); n, sh sw or stride, "
                  "pad=P or pad=T,B,L,R, dtype=int8|float32 (optional)")
      ->required();
  cmd->add_option("-e,--engine", opt->engine,
                  "matrix (the Wfold unit, seed000) or shader (register-group tiles, seed003); default: the "
                  "matrix unit when the chip has one, else the shader core")
      ->check(CLI::IsMember({"matrix", "shader"}));
  cmd->footer(
      "\nPrints the derived Pci, Ws, Bci, Aco, kmax, the loop counts Nco/Nkw/Nkh/Nci, the tiling,\n"
      "the stride transform, reuse factors, the MAC breakdown and the cycle estimate. With\n"
      "--engine shader: the register-group tiles, bytes fetched against a host-side im2col,\n"
      "register-file traffic, fetch and MAC cycles and instruction slots. The numbers come from\n"
      "the same mapping code the simulator and the compiler use.\n"
      "\nExamples:\n"
      "  npusim explain --layer hi=56,wi=56,ci=64,co=64,kh=3,kw=3,pad=1\n"
      "  npusim explain --layer hi=224,wi=224,ci=3,co=64,k=7,stride=2,pad=3\n"
      "  npusim explain --config configs/numa-2x2.json --layer hi=14,wi=14,ci=48,co=32,k=3\n"
      "  npusim explain --config configs/gpu-shader.json --layer hi=5,wi=5,ci=3,co=2,k=3   (seed003's example)");
  cmd->callback([opt] {
    HardwareConfig hw = load_hardware_config(bundled_file(opt->config));
    const bool shader = opt->engine == "shader" || (opt->engine.empty() && hw.cores_with("matrix").empty());
    const ConvShape layer = parse_conv_spec(opt->layer);
    std::cout << (shader ? explain_shader_layer(hw, layer) : explain_conv_layer(hw, layer));
  });
}

}  // namespace npusim
