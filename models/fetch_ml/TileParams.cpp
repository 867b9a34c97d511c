#include "models/fetch_ml/TileParams.h"

#include <fmt/format.h>

#include "sim/common/JsonInteger.h"

namespace npusim {

namespace {
std::optional<OpProblem> read_range(const nlohmann::json& params, const char* key, std::uint64_t& first,
                                    std::uint64_t& count) {
  if (!params.contains(key)) return std::nullopt;
  const nlohmann::json& v = params[key];
  const std::string field = std::string("params.") + key;
  if (!v.is_array() || v.size() != 2)
    return OpProblem{field, "must be [first, count], two non-negative integers"};
  auto f = json_integer_as<std::uint64_t>(v[0], 0, std::uint64_t(1) << 40);
  auto c = json_integer_as<std::uint64_t>(v[1], 1, std::uint64_t(1) << 40);
  if (!f) return OpProblem{field + "[0]", "first must be an integer from 0 to 2^40"};
  if (!c) return OpProblem{field + "[1]", "count must be an integer from 1 to 2^40"};
  first = *f;
  count = *c;
  return std::nullopt;
}
}  // namespace

std::optional<OpProblem> read_ml_tile(const nlohmann::json& params, MlTile& tile) {
  if (params.contains("image")) {
    auto image = json_integer_as<std::uint32_t>(params["image"], 0, 1u << 24);
    if (!image) return OpProblem{"params.image", "must be an integer from 0 to 2^24"};
    tile.positions.image = *image;
  }
  if (auto p = read_range(params, "positions", tile.positions.first, tile.positions.count)) return p;
  return read_range(params, "filters", tile.first_filter, tile.filters);
}

std::optional<OpProblem> require_param(const nlohmann::json& params, const char* key) {
  if (params.contains(key)) return std::nullopt;
  return OpProblem{std::string("params.") + key, fmt::format("is required: [first, count]")};
}

}  // namespace npusim
