#pragma once
#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace npusim {

// How a consumer waits on its producer (seed004). `Full` waits for completion;
// the other two let the consumer start on part of the producer's work.
enum class DependencyMode { Full, TwoPhase, Staged };
NLOHMANN_JSON_SERIALIZE_ENUM(DependencyMode, {{DependencyMode::Full, "full"},
                                              {DependencyMode::TwoPhase, "two_phase"},
                                              {DependencyMode::Staged, "staged"}})
inline constexpr std::array<DependencyMode, 3> kDependencyModes = {DependencyMode::Full, DependencyMode::TwoPhase,
                                                                   DependencyMode::Staged};

// The run-wide choice (config /core/controller/dependency_mode, run --dependency-mode):
// keep each trace dependency's own mode, or force one mode on all of them.
enum class DependencyRelease { AsTraced, Full, TwoPhase, Staged };
NLOHMANN_JSON_SERIALIZE_ENUM(DependencyRelease, {{DependencyRelease::AsTraced, "as_traced"},
                                                 {DependencyRelease::Full, "full"},
                                                 {DependencyRelease::TwoPhase, "two_phase"},
                                                 {DependencyRelease::Staged, "staged"}})
inline constexpr std::array<DependencyRelease, 4> kDependencyReleases = {
    DependencyRelease::AsTraced, DependencyRelease::Full, DependencyRelease::TwoPhase, DependencyRelease::Staged};

// The name an enum value has in JSON, and every name of a list of values (for
// choice lists in the config schema, the CLI and error messages).
template <class E>
std::string json_name(E value) {
  return nlohmann::json(value).get<std::string>();
}
template <class E, std::size_t N>
std::vector<std::string> json_names(const std::array<E, N>& values) {
  std::vector<std::string> names;
  for (E v : values) names.push_back(json_name(v));
  return names;
}

}  // namespace npusim
