#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "e2e/NpusimProcess.h"

// libsystemc.so refers to sc_main from its own main(); Catch provides main(),
// so this definition only satisfies the linker and is never called.
extern "C" int sc_main(int, char**) { return 0; }

namespace {

// Run directories of passing tests are noise (ctest runs every case as its own
// process, so they pile up by the thousand); those of failing tests are evidence.
struct ScratchCleanup : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testRunEnded(const Catch::TestRunStats& run) override {
    const std::string root = scratch_root();
    std::error_code ec;
    if (!std::filesystem::exists(root, ec)) return;
    if (run.totals.assertions.failed == 0 && run.totals.testCases.failed == 0 && !std::getenv("NPUSIM_KEEP_TEST_DIRS"))
      std::filesystem::remove_all(root, ec);
    else
      std::cerr << "test run directories kept in " << root << "\n";
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(ScratchCleanup)
