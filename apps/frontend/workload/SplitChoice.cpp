#include "apps/frontend/workload/SplitChoice.h"

#include <utility>

namespace npusim {

namespace {

const std::vector<std::pair<SplitChoice, std::string>> kChoices = {{SplitChoice::Auto, "auto"},
                                                                   {SplitChoice::Data, "data"},
                                                                   {SplitChoice::Model, "model"},
                                                                   {SplitChoice::ModelCo, "model-co"},
                                                                   {SplitChoice::ModelCi, "model-ci"},
                                                                   {SplitChoice::HybridCo, "hybrid-co"},
                                                                   {SplitChoice::HybridCi, "hybrid-ci"}};

}  // namespace

std::optional<SplitChoice> parse_split_choice(const std::string& name) {
  for (const auto& [c, n] : kChoices)
    if (n == name) return c;
  return std::nullopt;
}

const std::vector<std::string>& split_choice_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& c : kChoices) v.push_back(c.second);
    return v;
  }();
  return names;
}

}  // namespace npusim
