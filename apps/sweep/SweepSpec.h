#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace npusim {

// One swept parameter: a JSON pointer into the config (or the workload) and the values
// it takes. In a workload pointer, a "*" step means every element: "/layers/*/weight_sparsity".
struct SweepAxis {
  std::string name;     // column in results.csv; default: the pointer as a.b.c
  std::string pointer;  // e.g. "/core/matrix/slaves"
  bool in_workload = false;
  std::vector<nlohmann::json> values;
};

// A sweep spec file (docs/sweeps.md). Paths are resolved relative to the spec
// file's directory, so a spec can be run from anywhere.
struct SweepSpec {
  std::string file;
  std::string config;    // base hardware config
  std::string trace;     // exactly one of trace and workload is set
  std::string workload;
  bool functional = false;
  bool zip = false;      // pair the axes' values up instead of crossing them
  std::vector<SweepAxis> axes;
  bool has_workload_axes() const;
};

// Reads and checks a spec; every problem is an InputError naming the key.
SweepSpec load_sweep_spec(const std::string& path);

}  // namespace npusim
