#pragma once
#include <string>
#include <type_traits>

#include "sim/config/ConfigKeys.h"
#include "sim/config/ConfigSchema.h"

namespace npusim {

// A chip key: `locate` is a generic lambda returning a reference to the member, so
// one lambda serves both the writing (store) and the const reading (fetch) side.
template <class Locate>
Field chip_field(const std::string& dotted, Locate locate) {
  Field f;
  f.path = config_path_of(dotted.c_str());
  f.store = [locate](HardwareConfig& cfg, CoreConfig&, const nlohmann::json& value) {
    auto& slot = locate(cfg);
    slot = config_value_as<std::decay_t<decltype(slot)>>(value);
  };
  f.fetch = [locate](const HardwareConfig& cfg, const CoreConfig&) { return nlohmann::json(locate(cfg)); };
  return f;
}

// The chip keys of the banked DRAM model (DramKeys.cpp), after /chip/dram's own.
void add_banked_dram_keys(std::vector<ConfigKey>& keys);

}  // namespace npusim

#define NPUSIM_FIELD(member) ::npusim::chip_field(#member, [](auto& c) -> auto& { return c.member; })
