#include "apps/cli/Cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/cli/StandardOutput.h"
#include "sim/common/InputError.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace {
const char* kDescription =
    "npusim: a cycle-approximate SystemC simulator of a neural-network accelerator\n"
    "(Wfold matrix unit, vector unit, load/store DMAs, NRAM/WRAM, multi-channel DRAM).";

const char* kFooter =
    "\nExamples:\n"
    "  npusim run                                    ResNet-50 on the default chip, per-layer table\n"
    "  npusim run --workload traces/workloads/tiny.json --functional --out runs/tiny\n"
    "  npusim run --trace traces/examples/relu.jsonl --functional --out runs/relu\n"
    "  npusim validate configs/default.json          print the fully resolved config\n"
    "  npusim validate traces/examples/relu.jsonl    check a trace line by line\n"
    "  npusim explain --layer hi=56,wi=56,ci=64,co=64,kh=3,kw=3,pad=1\n"
    "  npusim compile --workload traces/workloads/resnet50.json -o resnet50.jsonl\n"
    "  npusim sweep configs/sweeps/conv-slaves.json --out runs/sweep\n"
    "  npusim explore configs/explore/resnet50-6axes.json --out runs/explore   search 6 axes for a Pareto front\n"
    "  npusim diff runs/a runs/b --tolerance 1       exit 1 when something moved by more than 1%\n"
    "\nRun `npusim COMMAND --help` for the options of one command.\n"
    "Exit status: 0 ok, 1 difference found (diff), 2 bad input, 3 internal error.\n";
// A summary lost on the way to stdout (a full disk, a closed pipe) is a failure too.
void check_standard_output(StandardOutput& out) {
  if (const int error = out.finish())
    throw InputError("standard output", "", fmt::format("cannot write: {}", std::strerror(error)));
}

int internal_error(const std::exception& e) {
  std::cerr << "internal error: " << echoed_for_message(e.what()) << "\n";
  return kExitInternal;
}

// The errors a file system gives for a path or place the user chose. Any other
// filesystem_error is npusim's own bug and stays an internal error (exit 3).
bool users_path_error(const std::error_code& code) {
  static const int kUsers[] = {ENAMETOOLONG, ELOOP,  EACCES, EPERM,  EROFS,  ENOSPC,    EDQUOT, EFBIG,
                               EBUSY,        ENOTDIR, EISDIR, ENOENT, EEXIST, ENOTEMPTY, EXDEV,  EMLINK};
  return code.category() == std::generic_category() || code.category() == std::system_category()
             ? std::find(std::begin(kUsers), std::end(kUsers), code.value()) != std::end(kUsers)
             : false;
}

// The file system refused a path the user gave or a place they chose: a name too
// long, a link loop, a read-only place. Their setup to fix, not a bug of npusim's.
std::string file_system_refusal(const std::filesystem::filesystem_error& e) {
  const std::string path = e.path1().empty() ? std::string("a file") : e.path1().string();
  return echoed_for_message(fmt::format("{}: {}", path, e.code().message()));
}

}  // namespace

int run_cli(int argc, char** argv) {
  install_interruption_handling();
  StandardOutput out;
  CLI::App app{kDescription, "npusim"};
  app.footer(kFooter);
  // One line, as every refusal: a bad option value is echoed back, and one pasted by
  // mistake may be 100 KB long or hold a newline or an escape sequence.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "error: " + echoed_for_message(e.what()) + " (see --help)\n";
  });
  app.require_subcommand(1);
  app.set_version_flag("--version", NPUSIM_VERSION);
  add_run_command(app);
  add_validate_command(app);
  add_explain_command(app);
  add_compile_command(app);
  add_diff_command(app);
  add_sweep_command(app);
  add_explore_command(app);
  try {
    app.parse(argc, argv);
    check_standard_output(out);
    return kExitOk;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a command that finished with a chosen status (diff: 1)
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    if (!users_path_error(e.code())) return internal_error(e);
    std::cerr << "error: " << file_system_refusal(e) << "\n";
    return kExitBadInput;
  } catch (const std::bad_array_new_length& e) {
    return internal_error(e);  // a size computed wrong: npusim's bug, not the input's
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory: this input needs more memory than the machine (or ulimit -v) gives npusim\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    return internal_error(e);
  }
}

}  // namespace npusim
