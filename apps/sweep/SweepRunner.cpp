#include "apps/sweep/SweepRunner.h"

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "apps/sweep/SlurmBackend.h"
#include "apps/sweep/SweepProgress.h"
#include "apps/sweep/SweepWorkspace.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

// The first point whose failure could not even be written down (a full disk, a
// read-only place): the sweep cannot go on and must say why, not report rows as
// "not run".
class UnrecordedFailure {
 public:
  void keep(const std::string& reason) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (reason_.empty()) reason_ = reason;
  }
  void rethrow(const std::string& out) const {
    if (!reason_.empty()) throw InputError(out, "", "cannot record the sweep's points: " + reason_);
  }

 private:
  std::mutex mutex_;
  std::string reason_;
};

bool run_point(const SweepWorkspace& ws, std::size_t i, UnrecordedFailure& unrecorded) {
  try {
    return ws.run(i);
  } catch (const std::exception& e) {
    // A file-system failure for one point must not take the other threads down.
    try {
      ws.fail(i, e.what());
    } catch (const std::exception& again) {
      unrecorded.keep(again.what());
    }
  }
  return false;
}

}  // namespace

SweepCounts run_sweep(const SweepSpec& spec, const SweepOptions& options) {
  SweepWorkspace ws(spec, options.out);
  ws.prepare();
  refuse_while_slurm_job_active(ws);
  SweepCounts counts;
  counts.points = ws.size();
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < ws.size(); ++i) {
    if (!ws.config_error(i).empty()) {
      ws.fail(i, ws.config_error(i));
      ++counts.failed;
    } else if (ws.complete(i)) {
      ++counts.skipped;
    } else {
      pending.push_back(i);
    }
  }

  SweepProgress progress(pending.size(), options.show_progress);
  std::atomic<std::size_t> next{0}, failed{0};
  UnrecordedFailure unrecorded;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < pending.size();) {
      const bool ok = run_point(ws, pending[i], unrecorded);
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
  unrecorded.rethrow(ws.out().string());
  ws.finish();
  return counts;
}

}  // namespace npusim
