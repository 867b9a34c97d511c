#include "apps/simulation/runner/ProgressMeter.h"

#include <cstdio>
#include <unistd.h>

#include <fmt/core.h>

namespace npusim {

ProgressMeter::ProgressMeter(std::string label, std::uint64_t total, std::string unit, bool enabled)
    : label_(std::move(label)),
      total_(total),
      unit_(std::move(unit)),
      enabled_(enabled),
      last_draw_(std::chrono::steady_clock::now()) {}

ProgressMeter::~ProgressMeter() { finish(); }

bool ProgressMeter::terminal_attached() { return isatty(STDOUT_FILENO) && isatty(STDERR_FILENO); }

void ProgressMeter::update(std::uint64_t done, std::uint64_t instructions, std::uint64_t cycles) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  draw(done, instructions, cycles);
}

void ProgressMeter::draw(std::uint64_t done, std::uint64_t instructions, std::uint64_t cycles) {
  constexpr int kWidth = 30;
  std::string line;
  if (total_ > 0) {
    int filled = static_cast<int>(kWidth * std::min<double>(1.0, double(done) / double(total_)));
    line = fmt::format("\r{} [{}{}] {:3d}% {}/{} {}, {} instructions, cycle {}", label_, std::string(filled, '#'),
                       std::string(kWidth - filled, ' '), filled * 100 / kWidth, done, total_, unit_, instructions,
                       cycles);
  } else {
    line = fmt::format("\r{} {} instructions dispatched, cycle {}", label_, instructions, cycles);
  }
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressMeter::finish() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);  // erase the bar so the summary starts clean
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace npusim
