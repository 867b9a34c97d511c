#pragma once
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/sweep/SweepPoints.h"
#include "apps/sweep/SweepResults.h"
#include "apps/sweep/SweepSpec.h"
#include "sim/report/PlaceLock.h"

namespace npusim {

// A sweep directory and the plan of every point: the config and workload it runs, and
// what its directory must hold to count as complete. Every backend (local threads, a
// Slurm array task) runs points through this one class, so a point's directory is the
// same wherever it ran.
class SweepWorkspace {
 public:
  // Reads the base config (and workload); each point is planned when first asked
  // about, so an array task plans only its own. Writes nothing.
  SweepWorkspace(const SweepSpec& spec, const std::string& out);

  // Claims `out` for this process until the workspace dies (PlaceLock), checks that it
  // may hold this sweep (empty, missing, or a sweep directory) and creates it with its
  // marker, points/ and .inputs/.
  void prepare() const;

  std::size_t size() const { return plans_.size(); }
  const SweepPoint& point(std::size_t i) const { return points_[i]; }
  const std::string& config_error(std::size_t i) const { return plan(i).config_error; }
  bool complete(std::size_t i) const;
  // Runs point i as a child `npusim run`, its directory written atomically; true when
  // it completed, else the point is recorded as failed.
  bool run(std::size_t i) const;
  // Leaves point i as a failed row saying `error`.
  void fail(std::size_t i, const std::string& error) const;
  bool failed(std::size_t i) const;
  // Removes point i's directory when it holds a failure (before it is run again).
  void clear_failure(std::size_t i) const;
  // Rewrites results.csv from every point directory and clears .inputs/.
  void finish() const;
  const std::filesystem::path& out() const { return out_; }

 private:
  struct PointPlan {
    std::filesystem::path dir;
    std::string point_json;     // expected point.json text
    std::string config_json;    // resolved config text, or the raw document if invalid
    std::string config_error;   // set when the config does not validate
    std::filesystem::path input_config;    // config file handed to the child
    std::string workload_json;             // workload axes: the point's workload text (else empty)
    std::filesystem::path input_workload;  // and the file handed to the child
  };
  PointPlan plan_point(const SweepPoint& p) const;
  // Planned on first use; different points may be planned from different threads.
  const PointPlan& plan(std::size_t i) const;
  std::vector<std::string> run_arguments(const PointPlan& plan) const;

  const SweepSpec& spec_;
  std::string out_arg_;
  std::filesystem::path out_;
  std::vector<SweepPoint> points_;
  nlohmann::json base_, workload_;
  mutable std::vector<std::unique_ptr<PointPlan>> plans_;
  // Each point's results row, read by run() once it completed (by the thread that ran it).
  mutable std::vector<std::optional<PointCells>> cells_;
  mutable PlaceLock::Handle lock_;
};

}  // namespace npusim
