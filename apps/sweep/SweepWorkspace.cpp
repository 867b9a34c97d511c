#include "apps/sweep/SweepWorkspace.h"

#include <optional>

#include <fmt/format.h>

#include "apps/sweep/ChildProcess.h"
#include "apps/sweep/SweepResults.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/StrictJson.h"
#include "sim/config/ConfigLoader.h"
#include "sim/report/OutputDirectory.h"

namespace npusim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

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

}  // namespace

bool SweepWorkspace::complete(std::size_t i) const {
  const PointPlan& plan = this->plan(i);
  return plan.config_error.empty() && fs::is_regular_file(plan.dir / "report.json") &&
         read_if_present(plan.dir / kPointFile) == plan.point_json &&
         read_if_present(plan.dir / kConfigFile) == plan.config_json &&
         (plan.workload_json.empty() || read_if_present(plan.dir / kWorkloadFile) == plan.workload_json);
}

SweepWorkspace::PointPlan SweepWorkspace::plan_point(const SweepPoint& p) const {
  const json& base = base_;
  const json& workload = workload_;
  const SweepSpec& spec = spec_;
  const fs::path& out = out_;
  PointPlan plan;
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

void SweepWorkspace::fail(std::size_t i, const std::string& error) const {
  const PointPlan& plan = this->plan(i);
  // Under the point's claim, and only if it holds nothing but npusim's files: a note
  // the user left in a point stops the sweep (exit 2 naming it) rather than being lost.
  const PlaceLock::Handle claim = PlaceLock::claim(plan.dir, plan.dir.string(), "");
  remove_run_directory(plan.dir);
  {
    CreationGuard guard;
    fs::create_directories(plan.dir);
  }
  write_marker(plan.dir, OutputKind::Run);  // so a resumed sweep's rerun may replace it
  write_file_atomically((plan.dir / kPointFile).string(), plan.point_json);
  write_file_atomically((plan.dir / kConfigFile).string(), plan.config_json);
  write_file_atomically((plan.dir / kErrorFile).string(), error + "\n");
}

std::vector<std::string> SweepWorkspace::run_arguments(const PointPlan& plan) const {
  const SweepSpec& spec = spec_;
  std::vector<std::string> args = {"run", "--quiet", "--config", plan.input_config.string(), "--out", plan.dir.string()};
  if (spec.trace.empty()) {
    args.insert(args.end(), {"--workload", plan.workload_json.empty() ? spec.workload : plan.input_workload.string()});
  } else {
    args.insert(args.end(), {"--trace", spec.trace});
  }
  if (spec.functional) args.push_back("--functional");
  if (!spec.rows.empty()) args.insert(args.end(), {"--rows", spec.rows});
  return args;
}

namespace {
// The child's message without its "error: " prefix; the status when it said nothing.
std::string child_error(const ChildResult& r) {
  std::string text = r.error_text;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.rfind("error: ", 0) == 0) text = text.substr(7);
  if (r.status == 2 && !text.empty()) return text;
  return fmt::format("npusim run exited with status {}{}{}", r.status, text.empty() ? "" : ": ", text);
}

}  // namespace

bool SweepWorkspace::run(std::size_t i) const {
  const PointPlan& plan = this->plan(i);
  write_file_atomically(plan.input_config.string(), plan.config_json);
  if (!plan.workload_json.empty()) write_file_atomically(plan.input_workload.string(), plan.workload_json);
  const ChildResult r = run_self(run_arguments(plan));
  if (r.status != 0 || !fs::is_regular_file(plan.dir / "report.json")) {
    fail(i, child_error(r));
    return false;
  }
  write_file_atomically((plan.dir / kConfigFile).string(), plan.config_json);
  write_file_atomically((plan.dir / kPointFile).string(), plan.point_json);
  if (!plan.workload_json.empty()) {
    write_file_atomically((plan.dir / kWorkloadFile).string(), plan.workload_json);
    fs::remove(plan.input_workload);
  }
  fs::remove(plan.input_config);
  cells_[i] = point_cells(plan.dir.string());
  return true;
}


SweepWorkspace::SweepWorkspace(const SweepSpec& spec, const std::string& out)
    : spec_(spec),
      out_arg_(out),
      out_(output_path(out)),
      points_(expand_points(spec)),
      base_(load_config_json(spec.config)),
      workload_(spec.has_workload_axes() ? parse_strict_json<json>(read_input_file(spec.workload), spec.workload)
                                         : json()),
      plans_(points_.size()),
      cells_(points_.size()) {}

const SweepWorkspace::PointPlan& SweepWorkspace::plan(std::size_t i) const {
  if (!plans_[i]) plans_[i] = std::make_unique<PointPlan>(plan_point(points_[i]));
  return *plans_[i];
}

void SweepWorkspace::prepare() const {
  // A sweep directory is resumed only if a sweep made it (or it is empty), and by
  // one sweep at a time: a second one is refused, naming the first one's pid.
  check_place_name(out_arg_, OutputKind::Sweep, "--out");
  create_parents(out_, out_arg_);
  lock_ = PlaceLock::claim(out_, out_arg_, "--out");
  check_output_place(out_arg_, OutputKind::Sweep, "--out");
  {
    CreationGuard guard;
    fs::create_directories(out_);
  }
  if (!has_marker(out_, OutputKind::Sweep)) write_marker(out_, OutputKind::Sweep);
  CreationGuard guard;
  fs::create_directories(out_ / "points");
  fs::create_directories(out_ / ".inputs");
}

bool SweepWorkspace::failed(std::size_t i) const { return fs::is_regular_file(plan(i).dir / kErrorFile); }

void SweepWorkspace::clear_failure(std::size_t i) const {
  if (!failed(i)) return;
  const PlaceLock::Handle claim = PlaceLock::claim(plan(i).dir, plan(i).dir.string(), "");
  remove_run_directory(plan(i).dir);
}

void SweepWorkspace::finish() const {
  std::error_code ignored;
  fs::remove_all(out_ / ".inputs", ignored);
  write_file_atomically((out_ / "results.csv").string(), results_csv(spec_, points_, (out_ / "points").string(), &cells_));
}

}  // namespace npusim
