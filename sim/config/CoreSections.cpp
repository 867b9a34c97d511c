#include "sim/config/CoreSections.h"

#include <algorithm>
#include <stdexcept>

#include "sim/common/InputError.h"

namespace npusim {

namespace {
std::vector<CoreSection>& registry() {
  static std::vector<CoreSection> sections;
  return sections;
}
}  // namespace

void SectionPlace::fail(const std::string& key, const std::string& reason) const {
  throw InputError(file, pointer + "/" + key, reason);
}

bool register_core_section(CoreSection section) {
  auto& sections = registry();
  auto at = std::lower_bound(sections.begin(), sections.end(), section.name,
                             [](const CoreSection& s, const std::string& name) { return s.name < name; });
  if (at != sections.end() && at->name == section.name)
    throw std::logic_error("core config section '" + section.name + "' is registered twice");
  sections.insert(at, std::move(section));
  return true;
}

const std::vector<CoreSection>& core_sections() { return registry(); }

std::vector<std::string> known_engine_names() {
  std::vector<std::string> names;
  for (const auto& s : core_sections())
    if (!s.engine.empty()) names.push_back(s.engine);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace npusim
