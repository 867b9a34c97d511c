#include "apps/sweep/SlurmBackend.h"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <filesystem>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/sweep/ChildProcess.h"
#include "apps/sweep/SweepProgress.h"
#include "apps/sweep/SweepWorkspace.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/report/OutputDirectory.h"

namespace npusim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// DIR/slurm/: the submission record, the batch script and the tasks' logs.
fs::path slurm_dir(const SweepWorkspace& ws) { return ws.out() / "slurm"; }
fs::path submission_file(const SweepWorkspace& ws) { return slurm_dir(ws) / "submission.json"; }
// claims/<k>/: the k-th submitted point was taken by the task named in claims/<k>/task.
fs::path claims_dir(const SweepWorkspace& ws) { return slurm_dir(ws) / "claims"; }

// Takes the k-th submitted point for `task`: mkdir is atomic, also on NFS.
bool claim(const SweepWorkspace& ws, std::size_t k, std::size_t task) {
  const fs::path dir = claims_dir(ws) / std::to_string(k);
  std::error_code ec;
  if (!fs::create_directory(dir, ec) || ec) return false;
  write_file_atomically((dir / "task").string(), std::to_string(task) + "\n");
  return true;
}

std::optional<std::string> claimed_by(const SweepWorkspace& ws, std::size_t k) {
  const fs::path file = claims_dir(ws) / std::to_string(k) / "task";
  if (!fs::is_regular_file(file)) return std::nullopt;
  std::string task = read_input_file(file.string());
  while (!task.empty() && task.back() == '\n') task.pop_back();
  return task;
}

struct Submission {
  std::string job_id;
  std::size_t points_per_task = 1;
  std::vector<std::size_t> points;  // point indices, task t runs [t*K, (t+1)*K)
  std::size_t tasks() const { return (points.size() + points_per_task - 1) / points_per_task; }
};

std::optional<Submission> read_submission(const SweepWorkspace& ws) {
  if (!fs::is_regular_file(submission_file(ws))) return std::nullopt;
  const json j = json::parse(read_input_file(submission_file(ws).string()));
  Submission s;
  s.job_id = j.value("job_id", "");
  s.points_per_task = j.at("points_per_task").get<std::size_t>();
  s.points = j.at("points").get<std::vector<std::size_t>>();
  return s;
}

void write_submission(const SweepWorkspace& ws, const Submission& s, const std::string& spec) {
  const json j = {{"spec", spec}, {"job_id", s.job_id}, {"points_per_task", s.points_per_task}, {"points", s.points}};
  write_file_atomically(submission_file(ws).string(), j.dump(1) + "\n");
}

// Single quotes for /bin/sh.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

ChildResult slurm_command(const std::string& program, const std::vector<std::string>& args) {
  try {
    return run_program(program, args);
  } catch (const std::runtime_error& e) {
    throw InputError("--backend slurm", "", std::string(e.what()) + " (is Slurm installed, and on PATH?)");
  }
}

// True while the job still has tasks queued or running.
bool job_active(const std::string& job_id) {
  if (job_id.empty()) return false;
  const ChildResult r = slurm_command("squeue", {"-h", "-j", job_id, "-o", "%i"});
  // squeue fails for a job id it has forgotten: the job is over.
  return r.status == 0 && r.output.find_first_not_of(" \n") != std::string::npos;
}

std::string self_binary() { return fs::read_symlink("/proc/self/exe").string(); }

}  // namespace

void refuse_while_slurm_job_active(const SweepWorkspace& ws) {
  if (const auto previous = read_submission(ws); previous && job_active(previous->job_id))
    throw InputError(ws.out().string(), "slurm/submission.json",
                     fmt::format("Slurm job {} of this sweep is still queued or running; wait for it (or scancel "
                                 "{}), then run again or collect with --collect",
                                 previous->job_id, previous->job_id));
}

SlurmSubmission submit_slurm_sweep(const SweepSpec& spec, const SweepOptions& options, const SlurmOptions& slurm) {
  SweepWorkspace ws(spec, options.out);
  ws.prepare();
  refuse_while_slurm_job_active(ws);
  SlurmSubmission result;
  result.counts.points = ws.size();
  Submission s;
  s.points_per_task = std::max<std::uint32_t>(1, slurm.points_per_task);
  for (std::size_t i = 0; i < ws.size(); ++i) {
    if (!ws.config_error(i).empty()) {
      ws.fail(i, ws.config_error(i));
      ++result.counts.failed;
    } else if (ws.complete(i)) {
      ++result.counts.skipped;
    } else {
      ws.clear_failure(i);  // a failure from an earlier run must not pass for this job's
      s.points.push_back(i);
    }
  }
  result.counts.run = s.points.size();
  if (s.points.empty()) {
    ws.finish();
    return result;
  }
  {
    CreationGuard guard;
    fs::create_directories(slurm_dir(ws) / "logs");
    fs::remove_all(claims_dir(ws));  // an earlier job's claims name other points
    fs::create_directories(claims_dir(ws));
  }
  const std::string spec_path = fs::absolute(spec.file).string();
  write_submission(ws, s, spec_path);  // before sbatch: a task may start at once
  const fs::path script = slurm_dir(ws) / "array.sh";
  write_file_atomically(script.string(),
                        "#!/bin/sh\n# Written by npusim sweep --backend slurm: each array task runs its share of "
                        "the points.\nexec " +
                            quoted(self_binary()) + " sweep " + quoted(spec_path) + " --out " +
                            quoted(fs::absolute(ws.out()).string()) + " --slurm-task \"$SLURM_ARRAY_TASK_ID\"\n");
  std::string array = fmt::format("0-{}", s.tasks() - 1);
  if (slurm.array_limit) array += fmt::format("%{}", slurm.array_limit);
  std::vector<std::string> args = {"--parsable", "--array=" + array, "--job-name=npusim-sweep",
                                   "--output=" + (fs::absolute(slurm_dir(ws)) / "logs" / "%A_%a.out").string()};
  if (!slurm.partition.empty()) args.push_back("--partition=" + slurm.partition);
  args.insert(args.end(), slurm.sbatch_args.begin(), slurm.sbatch_args.end());
  args.push_back(script.string());
  const ChildResult r = slurm_command("sbatch", args);
  if (r.status != 0)
    throw InputError("--backend slurm", "sbatch", fmt::format("refused the job (status {}): {}", r.status,
                                                              r.error_text.empty() ? r.output : r.error_text));
  s.job_id = r.output.substr(0, r.output.find_first_of(";\n"));  // "123" or "123;cluster"
  write_submission(ws, s, spec_path);
  result.job_id = s.job_id;
  result.tasks = s.tasks();
  return result;
}

void wait_for_slurm_job(const SweepSpec& spec, const SweepOptions& options, const std::string& job_id) {
  const SweepWorkspace ws(spec, options.out);
  const auto s = read_submission(ws);
  if (!s) return;
  SweepProgress progress(s->points.size(), options.show_progress);
  for (;;) {
    const bool active = job_active(job_id);
    std::size_t done = 0, failed = 0;
    for (std::size_t i : s->points) {
      const bool f = ws.failed(i);
      failed += f;
      done += f || ws.complete(i);
    }
    progress.set(done, failed, fmt::format(", job {}", job_id));
    if (!active) return;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

SweepCounts collect_slurm_sweep(const SweepSpec& spec, const SweepOptions& options) {
  const SweepWorkspace ws(spec, options.out);
  const auto s = read_submission(ws);
  if (!s) throw InputError(options.out, "slurm/submission.json", "no Slurm job was submitted for this sweep directory");
  if (job_active(s->job_id))
    throw InputError(options.out, "slurm/submission.json",
                     fmt::format("Slurm job {} is still queued or running; collect when it has finished", s->job_id));
  SweepCounts counts;
  counts.points = ws.size();
  counts.run = s->points.size();
  for (std::size_t k = 0; k < s->points.size(); ++k) {
    const std::size_t i = s->points[k];
    if (ws.complete(i)) continue;
    ++counts.failed;
    if (ws.failed(i)) continue;  // the task recorded why
    if (const auto task = claimed_by(ws, k))
      ws.fail(i, fmt::format("Slurm job {} task {} ended without finishing this point (cancelled, timed out or "
                             "killed; its log: slurm/logs/{}_{}.out)",
                             s->job_id, *task, s->job_id, *task));
    else
      ws.fail(i, fmt::format("Slurm job {} ended before any task started this point (cancelled?)", s->job_id));
  }
  std::vector<bool> submitted(ws.size(), false);
  for (std::size_t i : s->points) submitted[i] = true;
  for (std::size_t i = 0; i < ws.size(); ++i) {
    if (submitted[i]) continue;
    if (!ws.config_error(i).empty()) ++counts.failed;
    else if (ws.complete(i)) ++counts.skipped;
  }
  ws.finish();
  return counts;
}

std::size_t run_slurm_task(const SweepSpec& spec, const std::string& out, std::size_t task) {
  const SweepWorkspace ws(spec, out);
  const auto s = read_submission(ws);
  if (!s) throw InputError(out, "slurm/submission.json", "missing: this task has no submission to run");
  // The task starts on its own run of points, then takes any still unclaimed, so
  // Slurm's gap between one task's end and the next one's start is paid per CPU,
  // not per run of points.
  std::size_t failed = 0;
  const std::size_t n = s->points.size(), first = std::min(task * s->points_per_task, n);
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t k = (first + step) % n, i = s->points[k];
    if (!claim(ws, k, task)) continue;  // another task has it (every submitted point was incomplete)
    try {
      failed += !ws.run(i);
    } catch (const std::exception& e) {
      ws.fail(i, e.what());
      ++failed;
    }
  }
  // Every point is claimed: tasks still queued would only start, find nothing and stop,
  // one scheduler gap each. Cancel them (running ones finish their points).
  if (const char* job = std::getenv("SLURM_ARRAY_JOB_ID")) slurm_command("scancel", {"--state=PENDING", job});
  return failed;
}

}  // namespace npusim
