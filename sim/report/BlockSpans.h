#pragma once
#include <functional>
#include <string>
#include <utility>

#include "sim/common/Cycles.h"

namespace npusim {

// Busy spans of blocks inside an engine (each sparse compute unit, say), so the
// timeline can give every block its own track. The chip owns one; the run connects
// it to the timeline, and unit tests may leave it unconnected.
class BlockSpans {
 public:
  using Sink = std::function<void(const std::string& track, const std::string& name, Cycles start, Cycles end)>;
  void connect(Sink sink) { sink_ = std::move(sink); }
  void add(const std::string& track, const std::string& name, Cycles start, Cycles end) const {
    if (sink_) sink_(track, name, start, end);
  }

 private:
  Sink sink_;
};

}  // namespace npusim
