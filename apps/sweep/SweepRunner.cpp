#include "apps/sweep/SweepRunner.h"

#include <atomic>
#include <thread>

#include "apps/sweep/SweepProgress.h"
#include "apps/sweep/SweepWorkspace.h"

namespace npusim {

SweepCounts run_sweep(const SweepSpec& spec, const SweepOptions& options) {
  SweepWorkspace ws(spec, options.out);
  ws.prepare();
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
  auto worker = [&] {
    for (std::size_t i; (i = next++) < pending.size();) {
      bool ok = false;
      try {
        ok = ws.run(pending[i]);
      } catch (const std::exception& e) {
        // A file-system failure for one point must not take the other threads down.
        try {
          ws.fail(pending[i], e.what());
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
  ws.finish();
  return counts;
}

}  // namespace npusim
