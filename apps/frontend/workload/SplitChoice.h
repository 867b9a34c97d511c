#pragma once
#include <optional>
#include <string>
#include <vector>

namespace npusim {

// `npusim run/compile --split` and a workload's "split": let the compiler choose per
// layer, or force a mode where the layer allows it ("model": the cheaper of the two
// model modes; "hybrid-co", "hybrid-ci": seed002's hybrid mode). The names are the front end's vocabulary; the split planner acts on them.
enum class SplitChoice { Auto, Data, Model, ModelCo, ModelCi, HybridCo, HybridCi };
std::optional<SplitChoice> parse_split_choice(const std::string& name);
const std::vector<std::string>& split_choice_names();

}  // namespace npusim
