#include "apps/sweep/SweepRunner.h"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "apps/sweep/SweepWorkspace.h"

namespace npusim {

namespace {

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
