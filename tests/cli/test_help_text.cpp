// The pieces of --help the commands share (apps/cli/CommonOptions.cpp).
#include <catch2/catch.hpp>

#include <CLI/CLI.hpp>

#include "apps/cli/Cli.h"

using namespace npusim;

TEST_CASE("help footer: what the command does, a blank line, then one example a line", "[cli]") {
  CLI::App cmd;
  set_help_footer(cmd, "Writes A.\nThen B.", {"npusim x", "npusim y --z"});
  CHECK(cmd.get_footer() == "\nWrites A.\nThen B.\n\nExamples:\n  npusim x\n  npusim y --z");
}

TEST_CASE("shared options: -c/--config shows its default, -q/--quiet takes no value", "[cli]") {
  CLI::App cmd;
  std::string config = "configs/default.json";
  bool quiet = false;
  add_config_option(cmd, config);
  add_quiet_flag(cmd, quiet);
  const std::string help = cmd.help();
  CHECK(help.find("Hardware config (JSON)") != std::string::npos);
  CHECK(help.find("configs/default.json") != std::string::npos);
  CHECK(help.find("Print nothing on success") != std::string::npos);
  cmd.parse("--config other.json -q", false);
  CHECK(config == "other.json");
  CHECK(quiet);
}
