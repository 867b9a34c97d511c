#include <CLI/CLI.hpp>

#include "apps/cli/Cli.h"

namespace npusim {

void add_config_option(CLI::App& cmd, std::string& config, const std::string& help) {
  cmd.add_option("-c,--config", config, help)->capture_default_str();
}

void add_quiet_flag(CLI::App& cmd, bool& quiet, const std::string& help) { cmd.add_flag("-q,--quiet", quiet, help); }

void set_help_footer(CLI::App& cmd, const std::string& about, std::initializer_list<const char*> examples) {
  std::string text = "\n" + about + "\n\nExamples:";
  for (const char* example : examples) text += std::string("\n  ") + example;
  cmd.footer(text);
}

}  // namespace npusim
