#pragma once
#include <functional>
#include <initializer_list>
#include <string>

namespace npusim {

// Where a rule that ties several keys together reports a failure. Any of the keys may be
// the one to change; the error names the first of them that the user's own file wrote (a
// config extending a DRAM preset and setting tras is told about tras, in its file, not
// about the preset's trc), else the first listed. The loader then blames the file that
// wrote the named key (ConfigLoader: origin_of), which is the user's when it wrote it.
class CrossCheckPlace {
 public:
  using WrittenByUser = std::function<bool(const std::string& pointer)>;

  explicit CrossCheckPlace(std::string file, WrittenByUser written = {})
      : file_(std::move(file)), written_(std::move(written)) {}

  const std::string& file() const { return file_; }
  // The pointer to name among `pointers` (most likely culprit first).
  std::string key(std::initializer_list<std::string> pointers) const;
  [[noreturn]] void fail(std::initializer_list<std::string> pointers, const std::string& reason) const;

 private:
  std::string file_;
  WrittenByUser written_;
};

}  // namespace npusim
