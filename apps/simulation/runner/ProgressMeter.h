#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace npusim {

// A one-line progress display on stderr for long runs. It draws only when both
// stdout and stderr are terminals, so logs, pipes and CI stay clean, and redraws
// at most a few times a second so it costs nothing measurable.
class ProgressMeter {
 public:
  // `total` units of work named `unit` ("layers"); 0 when not known in advance, and
  // then only the instructions dispatched are shown.
  ProgressMeter(std::string label, std::uint64_t total, std::string unit, bool enabled);
  ~ProgressMeter();

  void update(std::uint64_t done, std::uint64_t instructions, std::uint64_t cycles);
  void finish();

  static bool terminal_attached();

 private:
  void draw(std::uint64_t done, std::uint64_t instructions, std::uint64_t cycles);

  std::string label_;
  std::uint64_t total_;
  std::string unit_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace npusim
