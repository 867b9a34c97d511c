#include "models/fetch_ml/FetchMlOps.h"

#include <fmt/format.h>

#include "models/fetch_ml/ControlRegisters.h"
#include "models/fetch_ml/TileParams.h"
#include "sim/common/JsonInteger.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {

constexpr auto kDram = AddressSpace::Dram;
constexpr auto kCluster = AddressSpace::Cluster;
constexpr auto kRf = AddressSpace::Rf;

std::optional<OpProblem> register_value(ControlRegister r, const nlohmann::json& v) {
  using R = ControlRegister;
  if (r == R::IfmDepthBits) {
    auto bits = json_integer(v, 8, 32);
    if (!bits || (*bits != 8 && *bits != 32)) return OpProblem{"params.value", "ifm_depth_bits must be 8 or 32"};
    return std::nullopt;
  }
  if (r == R::OutBase || r == R::IfmBase || r == R::WeightBase) {
    if (!json_integer(v, 0, std::uint64_t(1) << 48))
      return OpProblem{"params.value", "an address must be an integer from 0 to 2^48"};
    return std::nullopt;
  }
  if (r == R::AutoFetch && !json_integer(v, 0, 1)) return OpProblem{"params.value", "auto_fetch must be 0 or 1"};
  if (r == R::AutoFetch) return std::nullopt;
  if (r == R::TilePositions || r == R::TileFilters) {
    if (!json_integer(v, 0, std::uint64_t(1) << 32))
      return OpProblem{"params.value", "a tile size must be an integer from 0 to 2^32"};
    return std::nullopt;
  }
  const bool pad = r == R::PadTop || r == R::PadBottom || r == R::PadLeft || r == R::PadRight || r == R::IfmStrideY;
  if (!json_integer(v, pad ? 0 : 1, kMaxWindowParam))
    return OpProblem{"params.value", fmt::format("{} must be an integer from {} to {}",
                                                 control_register_table()[std::size_t(r)].name, pad ? 0 : 1,
                                                 kMaxWindowParam)};
  return std::nullopt;
}

std::optional<OpProblem> ml_set(const Instruction& ins) {
  const auto& p = ins.params;
  if (!p.contains("register") || !p["register"].is_string())
    return OpProblem{"params.register", fmt::format("is required: one of {}", fmt::join(control_register_names(), ", "))};
  const std::string name = p["register"];
  auto r = control_register_named(name);
  if (!r)
    return OpProblem{"params.register", fmt::format("unknown control register '{}'; choose one of {}", name,
                                                    fmt::join(control_register_names(), ", "))};
  if (!p.contains("value")) return OpProblem{"params.value", "is required"};
  return register_value(*r, p["value"]);
}

std::optional<OpProblem> same_dtype(const TensorOperand& a, const std::string& fa, const TensorOperand& b) {
  if (a.dtype == b.dtype) return std::nullopt;
  return OpProblem{fa, fmt::format("dtype {} differs from {}", dtype_name(a.dtype), dtype_name(b.dtype))};
}

std::optional<OpProblem> fetch_ifm(const Instruction& ins) {
  if (auto p = require_param(ins.params, "positions")) return p;
  const TensorOperand& src = ins.inputs[0];
  const TensorOperand& tile = ins.outputs[0];
  if (src.shape.size() != 3)
    return OpProblem{"inputs[0].shape", "fetch_ml of an ifm reads image rows [rows, wi, ci]"};
  const bool compact = tile.shape.size() == 3;
  if (compact && tile.shape != src.shape)
    return OpProblem{"outputs[0].shape", fmt::format("a compact tile holds the rows as fetched: {}, got {}",
                                                     shape_text(src.shape), shape_text(tile.shape))};
  if (!compact && (tile.shape.size() != 2 || tile.shape[1] % src.shape[2] != 0))
    return OpProblem{"outputs[0].shape", "must be [positions, kh*kw*ci] (unrolled) or [rows, wi, ci] (compact)"};
  return std::nullopt;
}

std::optional<OpProblem> fetch_weights(const Instruction& ins) {
  if (auto p = require_param(ins.params, "filters")) return p;
  const TensorOperand& src = ins.inputs[0];
  const TensorOperand& tile = ins.outputs[0];
  if (auto p = rank4(src, "inputs[0]", "fetch_ml of weights", "[filters, fy, fx, ci]")) return p;
  const Shape want = {src.shape[0], src.shape[1] * src.shape[2] * src.shape[3]};
  if (tile.shape != want)
    return OpProblem{"outputs[0].shape", fmt::format("filter rows unrolled: must be {}, got {}", shape_text(want),
                                                     shape_text(tile.shape))};
  return std::nullopt;
}

// The cache hint (seed003 ¶25) and the auto-fetch mark (¶[0051]) a fetch may carry.
std::optional<OpProblem> fetch_fields(const nlohmann::json& params) {
  if (params.contains("cache") && params["cache"] != "keep" && params["cache"] != "stream")
    return OpProblem{"params.cache", "must be \"keep\" (allocate the lines read) or \"stream\" (do not)"};
  if (params.contains("auto") && !params["auto"].is_boolean()) return OpProblem{"params.auto", "must be true or false"};
  return std::nullopt;
}

// A preload names the tile a later fetch will read: its source only.
std::optional<OpProblem> ml_preload(const Instruction& ins) {
  MlTile tile;
  if (auto p = read_ml_tile(ins.params, tile)) return p;
  const std::string data = ins.params.value("data", std::string());
  if (data == "ifm") {
    if (auto p = require_param(ins.params, "positions")) return p;
    if (ins.inputs[0].shape.size() != 3)
      return OpProblem{"inputs[0].shape", "a preload of an ifm names image rows [rows, wi, ci]"};
    return std::nullopt;
  }
  if (data == "weights") {
    if (auto p = require_param(ins.params, "filters")) return p;
    return rank4(ins.inputs[0], "inputs[0]", "a preload of weights", "[filters, fy, fx, ci]");
  }
  return OpProblem{"params.data", "is required: \"ifm\" or \"weights\""};
}

std::optional<OpProblem> fetch_ml(const Instruction& ins) {
  MlTile tile;
  if (auto p = read_ml_tile(ins.params, tile)) return p;
  if (auto p = fetch_fields(ins.params)) return p;
  const TensorOperand& src = ins.inputs[0];
  if (src.dtype != DType::Int8 && src.dtype != DType::Float32)
    return OpProblem{"inputs[0].dtype", fmt::format("fetch_ml moves int8 or float32, got {}", dtype_name(src.dtype))};
  if (auto p = same_dtype(ins.outputs[0], "outputs[0].dtype", src)) return p;
  const std::string data = ins.params.value("data", std::string());
  if (data == "ifm") return fetch_ifm(ins);
  if (data == "weights") return fetch_weights(ins);
  return OpProblem{"params.data", "is required: \"ifm\" or \"weights\""};
}

std::optional<OpProblem> ml_return(const Instruction& ins) {
  MlTile tile;
  if (auto p = read_ml_tile(ins.params, tile)) return p;
  if (auto p = require_param(ins.params, "positions")) return p;
  if (auto p = require_param(ins.params, "filters")) return p;
  const Shape want = {tile.positions.count, tile.filters};
  if (ins.inputs[0].shape != want)
    return OpProblem{"inputs[0].shape", fmt::format("results of the tile are [positions, filters] = {}, got {}",
                                                    shape_text(want), shape_text(ins.inputs[0].shape))};
  if (auto p = same_shape_and_dtype(ins.outputs[0], "outputs[0]", ins.inputs[0], "inputs[0]")) return p;
  return std::nullopt;
}

}  // namespace

std::vector<OpSpec> fetch_ml_ops() {
  return {
      {"ml_set", "fetch_ml", {}, {}, {"register", "value"}, ml_set},
      {"fetch_ml", "fetch_ml", {{"source", {kDram, kCluster}}}, {{"tile", {kRf}}},
       {"data", "image", "positions", "filters", "cache", "auto"}, fetch_ml},
      // Lines of a later fetch's tile brought into the fetch-path cache (seed003 ¶[0050]).
      {"ml_preload", "fetch_ml", {{"source", {kDram}}}, {}, {"data", "image", "positions", "filters"}, ml_preload},
      {"ml_return", "fetch_ml", {{"results", {kRf}}}, {{"destination", {kDram, kCluster}, true}},
       {"image", "positions", "filters"}, ml_return},
  };
}

}  // namespace npusim
