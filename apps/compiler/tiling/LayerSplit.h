#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/tags/SplitStrategy.h"
#include "apps/tags/TagInformation.h"

namespace npusim {

// How one layer is shared by its cores, and why (configs/split-strategies/README.md).
struct LayerSplit {
  ParallelMode mode = ParallelMode::Data;
  std::optional<ParallelMode> rule_choice;  // the first mode the §3.3 rule applies to, if any
  std::string reason;
  std::vector<std::pair<ParallelMode, double>> estimates;  // cycles of each candidate mode
  // Each candidate run alone on the chip (SplitOptions::trial); empty when auto did not simulate.
  std::vector<std::pair<ParallelMode, std::uint64_t>> simulated;
  std::vector<TagInformation> tags;  // in (one per input), iw (weighted layers), on
  std::vector<std::string> tag_names;
};

}  // namespace npusim
