#pragma once
#include <any>
#include <map>
#include <stdexcept>
#include <string>

namespace npusim {

// The config structs of a core's blocks, by section name ("matrix", "load_dma").
// Each block defines its own struct in its own folder; the core holds them
// without knowing their types, so adding a block touches nothing central.
// Copies are deep (std::any copies its value).
class BlockConfigs {
 public:
  template <class T>
  const T& get(const std::string& section) const {
    auto it = sections_.find(section);
    const T* value = it == sections_.end() ? nullptr : std::any_cast<T>(&it->second);
    if (!value) throw std::logic_error("core config has no section '" + section + "' of the asked type");
    return *value;
  }
  template <class T>
  T& get(const std::string& section) {
    return const_cast<T&>(static_cast<const BlockConfigs&>(*this).get<T>(section));
  }
  bool has(const std::string& section) const { return sections_.count(section) != 0; }
  void put(const std::string& section, std::any value) { sections_[section] = std::move(value); }

 private:
  std::map<std::string, std::any> sections_;
};

}  // namespace npusim
