#include "sim/energy/EnergyLedger.h"

#include <stdexcept>

namespace npusim {

std::size_t EnergyLedger::add_component(EnergyComponent c) {
  components_.push_back(std::move(c));
  return components_.size() - 1;
}

void EnergyLedger::add_source(std::size_t component, EnergyAction action, const std::uint64_t* count,
                              std::string what) {
  if (started_) throw std::logic_error("energy sources must be added before the run starts");
  sources_.push_back({component, std::move(action), count, std::move(what)});
  last_.push_back(*count);
}

void EnergyLedger::fold() {
  std::vector<std::uint64_t>& counts = buckets_[current_].counts;
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    const std::uint64_t now = *sources_[i].count;
    counts[i] += now - last_[i];
    last_[i] = now;
  }
}

// Anything counted before the first instruction goes to it (there is nothing such today).
void EnergyLedger::switch_to(std::size_t group, DType dtype) {
  if (started_) fold();
  started_ = true;
  if (group >= index_.size()) {
    std::array<std::int32_t, kDTypes> none;
    none.fill(-1);
    index_.resize(group + 1, none);
  }
  std::int32_t& slot = index_[group][static_cast<std::size_t>(dtype)];
  if (slot < 0) {
    slot = static_cast<std::int32_t>(buckets_.size());
    buckets_.push_back({group, dtype, std::vector<std::uint64_t>(sources_.size(), 0)});
  }
  current_ = static_cast<std::size_t>(slot);
}

void EnergyLedger::close() {
  if (!started_) switch_to(0, DType::Int8);  // a run without instructions
  fold();
}

}  // namespace npusim
