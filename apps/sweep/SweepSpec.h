#pragma once
#include <cstdint>
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

// How a Slurm backend submits the sweep (a spec's "slurm" object; the command line
// overrides each field).
struct SlurmSettings {
  std::string partition;                // empty: the cluster's default
  std::uint32_t array_limit = 0;        // array tasks running at once; 0: no limit
  std::uint32_t points_per_task = 20;
  std::vector<std::string> sbatch_args; // passed to sbatch as they are
};

// A sweep spec file (docs/sweeps.md). Paths are resolved relative to the spec
// file's directory, so a spec can be run from anywhere.
struct SweepSpec {
  std::string file;
  std::string config;    // base hardware config
  std::string trace;     // exactly one of trace and workload is set
  std::string workload;
  bool functional = false;
  std::string rows;      // each point's `run --rows`; empty: run's default
  bool zip = false;      // pair the axes' values up instead of crossing them
  std::vector<SweepAxis> axes;
  std::string backend = "local";  // "local" or "slurm"
  SlurmSettings slurm;
  bool has_workload_axes() const;
};

// Reads and checks a spec; every problem is an InputError naming the key.
SweepSpec load_sweep_spec(const std::string& path);

}  // namespace npusim
