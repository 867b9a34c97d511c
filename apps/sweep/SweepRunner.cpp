#include "apps/sweep/SweepRunner.h"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"
#include "sim/common/InputFile.h"
#include "sim/common/StrictJson.h"
#include "sim/report/OutputDirectory.h"
#include "apps/sweep/ChildProcess.h"
#include "apps/sweep/SweepPoints.h"
#include "apps/sweep/SweepResults.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// What a point directory must hold to count as done, and what to run if not.
struct PointPlan {
  const SweepPoint* point = nullptr;
  fs::path dir;
  std::string point_json;   // expected point.json text
  std::string config_json;  // resolved config text, or the raw document if invalid
  std::string config_error; // set when the config does not validate
  fs::path input_config;    // config file handed to the child
  std::string workload_json;  // workload axes: the point's workload text (else empty)
  fs::path input_workload;    // and the file handed to the child
};

constexpr const char* kWorkloadFile = "workload.json";

std::string file_name(const std::string& path) { return path.empty() ? "" : fs::path(path).filename().string(); }

std::string point_json(const SweepSpec& spec, const SweepPoint& p) {
  nlohmann::ordered_json doc;
  doc["index"] = p.index;
  doc["name"] = p.name;
  doc["axes"] = nlohmann::ordered_json::object();
  for (std::size_t a = 0; a < spec.axes.size(); ++a) doc["axes"][spec.axes[a].name] = p.values[a];
  // File names only: a point directory must not depend on where the sweep ran.
  doc["config"] = file_name(spec.config);
  doc[spec.trace.empty() ? "workload" : "trace"] = file_name(spec.trace.empty() ? spec.workload : spec.trace);
  doc["functional"] = spec.functional;
  return doc.dump(2) + "\n";
}

std::optional<std::string> read_if_present(const fs::path& path) {
  if (!fs::is_regular_file(path)) return std::nullopt;
  return read_input_file(path.string());
}

bool complete(const PointPlan& plan) {
  return plan.config_error.empty() && fs::is_regular_file(plan.dir / "report.json") &&
         read_if_present(plan.dir / kPointFile) == plan.point_json &&
         read_if_present(plan.dir / kConfigFile) == plan.config_json &&
         (plan.workload_json.empty() || read_if_present(plan.dir / kWorkloadFile) == plan.workload_json);
}

PointPlan plan_point(const SweepSpec& spec, const json& base, const json& workload, const SweepPoint& p,
                     const fs::path& out) {
  PointPlan plan;
  plan.point = &p;
  plan.dir = out / "points" / p.name;
  plan.point_json = point_json(spec, p);
  plan.input_config = out / ".inputs" / (p.name + ".json");
  json doc;
  try {
    doc = point_config(base, spec, p);
    const HardwareConfig cfg = parse_hardware_config(doc, fmt::format("point {}", p.name));
    plan.config_json = resolved_config_json(cfg).dump(2) + "\n";
  } catch (const InputError& e) {
    plan.config_error = e.what();
  } catch (const json::exception& e) {
    plan.config_error = fmt::format("point {}: cannot set the axis values: {}", p.name, e.what());
  }
  if (!plan.config_error.empty()) plan.config_json = doc.dump(2) + "\n";
  if (spec.has_workload_axes() && plan.config_error.empty()) {
    try {
      plan.workload_json = point_workload(workload, spec, p).dump(2) + "\n";
      plan.input_workload = out / ".inputs" / (p.name + ".workload.json");
    } catch (const json::exception& e) {
      plan.config_error = fmt::format("point {}: cannot set the workload axis values: {}", p.name, e.what());
    }
  }
  return plan;
}

void record_failure(const PointPlan& plan, const std::string& error) {
  fs::remove_all(plan.dir);
  {
    CreationGuard guard;
    fs::create_directories(plan.dir);
  }
  write_marker(plan.dir, OutputKind::Run);  // so a resumed sweep's rerun may replace it
  write_file_atomically((plan.dir / kPointFile).string(), plan.point_json);
  write_file_atomically((plan.dir / kConfigFile).string(), plan.config_json);
  write_file_atomically((plan.dir / kErrorFile).string(), error + "\n");
}

std::vector<std::string> run_arguments(const SweepSpec& spec, const PointPlan& plan) {
  std::vector<std::string> args = {"run", "--quiet", "--config", plan.input_config.string(), "--out", plan.dir.string()};
  if (spec.trace.empty()) {
    args.insert(args.end(), {"--workload", plan.workload_json.empty() ? spec.workload : plan.input_workload.string()});
  } else {
    args.insert(args.end(), {"--trace", spec.trace});
  }
  if (spec.functional) args.push_back("--functional");
  return args;
}

// The child's message without its "error: " prefix; the status when it said nothing.
std::string child_error(const ChildResult& r) {
  std::string text = r.error_text;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.rfind("error: ", 0) == 0) text = text.substr(7);
  if (r.status == 2 && !text.empty()) return text;
  return fmt::format("npusim run exited with status {}{}{}", r.status, text.empty() ? "" : ": ", text);
}

// True when the point ran to a complete directory.
bool run_point(const SweepSpec& spec, const PointPlan& plan) {
  write_file_atomically(plan.input_config.string(), plan.config_json);
  if (!plan.workload_json.empty()) write_file_atomically(plan.input_workload.string(), plan.workload_json);
  const ChildResult r = run_self(run_arguments(spec, plan));
  if (r.status != 0 || !fs::is_regular_file(plan.dir / "report.json")) {
    record_failure(plan, child_error(r));
    return false;
  }
  write_file_atomically((plan.dir / kConfigFile).string(), plan.config_json);
  write_file_atomically((plan.dir / kPointFile).string(), plan.point_json);
  if (!plan.workload_json.empty()) {
    write_file_atomically((plan.dir / kWorkloadFile).string(), plan.workload_json);
    fs::remove(plan.input_workload);
  }
  fs::remove(plan.input_config);
  return true;
}

// "sweep [######    ] 4/6 points, 1 failed" on stderr, redrawn per finished point.
class SweepProgress {
 public:
  SweepProgress(std::size_t total, bool enabled) : total_(total), enabled_(enabled) {}
  ~SweepProgress() {
    if (drawn_) std::fputs("\r\033[K", stderr);
  }
  void point_done(bool failed) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    failed_ += failed;
    if (!enabled_) return;
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = total_ ? kWidth * done_ / total_ : kWidth;
    std::fputs(fmt::format("\rsweep [{}{}] {}/{} points, {} failed", std::string(filled, '#'),
                           std::string(kWidth - filled, ' '), done_, total_, failed_)
                   .c_str(),
               stderr);
    std::fflush(stderr);
    drawn_ = true;
  }

 private:
  std::mutex mutex_;
  std::size_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
};

}  // namespace

SweepCounts run_sweep(const SweepSpec& spec, const SweepOptions& options) {
  const json base = load_config_json(spec.config);
  const json workload = spec.has_workload_axes() ? parse_strict_json<json>(read_input_file(spec.workload), spec.workload)
                                                 : json();
  const std::vector<SweepPoint> points = expand_points(spec);
  // A sweep directory is resumed only if a sweep made it (or it is empty).
  check_output_place(options.out, OutputKind::Sweep, "--out");
  const fs::path out = output_path(options.out);
  create_parents(out, options.out);
  {
    CreationGuard guard;
    fs::create_directories(out);
  }
  if (!has_marker(out, OutputKind::Sweep)) write_marker(out, OutputKind::Sweep);
  {
    CreationGuard guard;
    fs::create_directories(out / "points");
    fs::create_directories(out / ".inputs");
  }

  SweepCounts counts;
  counts.points = points.size();
  std::vector<PointPlan> pending;
  for (const auto& p : points) {
    PointPlan plan = plan_point(spec, base, workload, p, out);
    if (!plan.config_error.empty()) {
      record_failure(plan, plan.config_error);
      ++counts.failed;
    } else if (complete(plan)) {
      ++counts.skipped;
    } else {
      pending.push_back(std::move(plan));
    }
  }

  SweepProgress progress(pending.size(), options.show_progress);
  std::atomic<std::size_t> next{0}, failed{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < pending.size();) {
      bool ok = false;
      try {
        ok = run_point(spec, pending[i]);
      } catch (const std::exception& e) {
        // A file-system failure for one point must not take the other threads down.
        try {
          record_failure(pending[i], e.what());
        } catch (const std::exception&) {
        }
      }
      failed += !ok;
      progress.point_done(!ok);
    }
  };
  std::vector<std::thread> threads;
  const std::size_t n_threads = std::min<std::size_t>(std::max(1u, options.jobs), pending.size());
  for (std::size_t t = 0; t < n_threads; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  counts.run = pending.size();
  counts.failed += failed;

  std::error_code ignored;
  fs::remove_all(out / ".inputs", ignored);
  write_file_atomically((out / "results.csv").string(), results_csv(spec, points, (out / "points").string()));
  return counts;
}

}  // namespace npusim
