// The set-up by purpose (issue 35): scripts/run-default.sh installs only what building and
// running npusim needs, and that is enough to configure and build the npusim target.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <set>
#include <sstream>

#include "e2e/NpusimProcess.h"

namespace {

// Runs a shell command; its status and what it printed (stdout and stderr).
std::pair<int, std::string> shell(const std::string& dir, const std::string& command) {
  const int status = std::system((command + " > " + dir + "/out.txt 2>&1").c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(dir + "/out.txt")};
}

std::set<std::string> packages(const std::string& dir, const std::string& purposes) {
  const auto [status, out] = shell(dir, source_path("scripts/setup.sh") + " --list " + purposes);
  INFO(out);
  REQUIRE(status == 0);
  std::set<std::string> names;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) names.insert(line);
  return names;
}

}  // namespace

TEST_CASE("setup.sh: the run set-up leaves out what only the tests need", "[setup]") {
  const std::string dir = scratch_dir("setup-lists");
  const auto run = packages(dir, "run");
  CHECK(packages(dir, "") == run);  // run is the default purpose
  for (const char* needed : {"cmake", "g++", "make", "pkg-config", "libsystemc-dev", "libfmt-dev",
                             "nlohmann-json3-dev", "libcli11-dev", "libonnx-dev", "libprotobuf-dev"})
    CHECK(run.count(needed) == 1);
  for (const char* test_only : {"catch2", "clang", "libclang-rt-14-dev", "ccache", "slurm-wlm", "munge",
                                "python3-onnx", "python3-torch", "python3-pytest", "python3"})
    CHECK(run.count(test_only) == 0);
  const auto all = packages(dir, "run python test");
  for (const char* test_only : {"catch2", "clang", "slurm-wlm", "munge", "python3-onnx", "python3-pandas",
                                "python3-optuna", "python3-nbclient", "python3-ipykernel", "python3-pytest",
                                "python3-torch", "python3-torchvision"})
    CHECK(all.count(test_only) == 1);
  CHECK(shell(dir, source_path("scripts/setup.sh") + " --list nonsense").first == 2);
}

TEST_CASE("CMake configures the npusim target without Catch2, leaving the tests out", "[setup][heavy]") {
  const std::string dir = scratch_dir("setup-no-catch2");
  const auto [status, out] = shell(dir, "cmake -S " + source_path("") + " -B " + dir +
                                            "/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON");
  INFO(out);
  REQUIRE(status == 0);
  CHECK(out.find("Catch2 not found: the tests are not built") != std::string::npos);
  const auto [help_status, targets] = shell(dir, "cmake --build " + dir + "/build --target help");
  REQUIRE(help_status == 0);
  CHECK(targets.find("... npusim\n") != std::string::npos);
  CHECK(targets.find("npusim_tests") == std::string::npos);
}
