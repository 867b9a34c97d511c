#pragma once
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "models/fetch_ml/AddressGenerator.h"
#include "sim/trace/OpCatalog.h"

namespace npusim {

// The tile a fetch_ml, ml_matmul or ml_return instruction works on: a run of output
// positions of one image ("image", "positions": [first, count]) and a block of
// filters ("filters": [first, count]).
struct MlTile {
  PositionRange positions;
  std::uint64_t first_filter = 0, filters = 0;
};

// Reads the params that are present; a present one must be well formed.
std::optional<OpProblem> read_ml_tile(const nlohmann::json& params, MlTile& tile);
// `key` must be present ("positions" or "filters").
std::optional<OpProblem> require_param(const nlohmann::json& params, const char* key);

}  // namespace npusim
