#pragma once
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>

#include <fmt/format.h>

namespace npusim {

// "sweep [######    ] 4/6 points, 1 failed" on stderr, redrawn per finished point
// (local backend) or per poll (a Slurm job: `set` with the counts seen so far).
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
    draw("");
  }
  // A Slurm job: the points finished so far, and what the job is doing.
  void set(std::size_t done, std::size_t failed, const std::string& note) {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = done;
    failed_ = failed;
    draw(note);
  }

 private:
  void draw(const std::string& note) {
    if (!enabled_) return;
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = total_ ? kWidth * done_ / total_ : kWidth;
    std::fputs(fmt::format("\rsweep [{}{}] {}/{} points, {} failed{}\033[K", std::string(filled, '#'),
                           std::string(kWidth - filled, ' '), done_, total_, failed_, note)
                   .c_str(),
               stderr);
    std::fflush(stderr);
    drawn_ = true;
  }

  std::mutex mutex_;
  std::size_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
};

}  // namespace npusim
