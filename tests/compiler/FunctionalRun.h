#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "e2e/NpusimProcess.h"

namespace npusim::layer_reference {

// Runs `workload` on `config` in functional mode into `out`, requiring success, and returns
// the folder of its tensors (ending in '/') for the caller to compare with a reference.
inline std::string run_functional(const std::string& workload, const std::string& config, const std::string& out) {
  const auto r = run_npusim({"run", "--quiet", "--functional", "--workload", workload, "--config", config, "--out", out});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return out + "/tensors/";
}

}  // namespace npusim::layer_reference
