#include "models/sparse_cluster/SparseOps.h"

#include <fmt/format.h>

#include "models/compression_block/CompressedRows.h"
#include "models/sparse_cluster/SparseLayerMapping.h"
#include "sim/common/JsonInteger.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {

constexpr auto kDram = AddressSpace::Dram;

std::optional<OpProblem> needs_param(const nlohmann::json& params, const char* key, const char* form) {
  if (params.contains(key)) return std::nullopt;
  return OpProblem{std::string("params.") + key, std::string("is required: ") + form};
}

std::optional<OpProblem> fraction(const nlohmann::json& v, const std::string& field) {
  if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1)
    return OpProblem{field, "must be a zero fraction from 0 to 1"};
  return std::nullopt;
}

// A compressed tensor in the flat format: a values operand and an indices operand of one length.
std::optional<OpProblem> flat_pair(const TensorOperand& values, const std::string& vfield,
                                   const TensorOperand& indices, const std::string& ifield) {
  if (values.shape.size() != 1) return OpProblem{vfield + ".shape", "compressed values are a list: [capacity]"};
  if (auto p = needs_dtype(values, vfield, DType::Int8)) return p;
  if (auto p = needs_dtype(indices, ifield, DType::Int32)) return p;
  if (indices.shape != values.shape)
    return OpProblem{ifield + ".shape", fmt::format("{} indices for {} values: a compressed tensor needs one index "
                                                    "per value", shape_text(indices.shape), shape_text(values.shape))};
  return std::nullopt;
}

// A compressed tensor in the recursive format (models/compression_block): int8 values
// [h, w, c] and a uint8 index buffer [h, pitch], one row slot each.
std::optional<OpProblem> recursive_pair(const TensorOperand& values, const std::string& vfield,
                                        const TensorOperand& indices, const std::string& ifield) {
  if (auto p = needs_dtype(values, vfield, DType::Int8)) return p;
  if (values.shape.size() != 3)
    return OpProblem{vfield + ".shape", "recursive compressed values are [h, w, c], one row slot per map row"};
  if (values.shape[1] * values.shape[2] > (1u << 24))
    return OpProblem{vfield + ".shape", "a map row (w * c) may have at most 2^24 elements"};
  const CompressedRows rows{std::uint32_t(values.shape[0]), std::uint32_t(values.shape[1]),
                            std::uint32_t(values.shape[2])};
  const std::vector<std::uint64_t> want{values.shape[0], rows.index_pitch()};
  if (indices.shape != want)
    return OpProblem{ifield + ".shape", fmt::format("the index buffer of {} values is {} (a row's longest stream)",
                                                    shape_text(values.shape), shape_text(want))};
  return std::nullopt;
}

// Either format: a uint8 index buffer means the recursive one.
std::optional<OpProblem> compressed_pair(const TensorOperand& values, const std::string& vfield,
                                         const TensorOperand& indices, const std::string& ifield) {
  if (indices.dtype == DType::UInt8) return recursive_pair(values, vfield, indices, ifield);
  return flat_pair(values, vfield, indices, ifield);
}

std::optional<OpProblem> compress(const Instruction& ins) {
  if (auto p = needs_dtype(ins.inputs[0], "inputs[0]", DType::Int8)) return p;
  if (auto p = compressed_pair(ins.outputs[0], "outputs[0]", ins.outputs[1], "outputs[1]")) return p;
  if (ins.outputs[1].dtype == DType::UInt8 && ins.outputs[0].shape != ins.inputs[0].shape)
    return OpProblem{"outputs[0].shape", fmt::format("recursive compressed values are the dense tensor's {}",
                                                     shape_text(ins.inputs[0].shape))};
  if (ins.params.contains("assumed_zeros"))
    if (auto p = fraction(ins.params["assumed_zeros"], "params.assumed_zeros")) return p;
  return std::nullopt;
}

// params.pool: the back end's pooling window over the [ho, wo] output (1370/1470/1590);
// `ho` and `wo` become the pooled map's.
std::optional<OpProblem> pool_params(const Instruction& ins, std::uint64_t& ho, std::uint64_t& wo) {
  if (!ins.params.contains("pool")) return std::nullopt;
  const nlohmann::json& p = ins.params["pool"];
  const char* form = R"(must be {"max": true or false, "kernel": [kh, kw], "stride": [sh, sw], "padding": [t, b, l, r]})";
  if (!p.is_object() || !p.contains("max") || !p["max"].is_boolean() || !p.contains("kernel"))
    return OpProblem{"params.pool", form};
  for (const auto& [key, value] : p.items())
    if (key != "max" && key != "kernel" && key != "stride" && key != "padding")
      return OpProblem{"params.pool." + key, std::string("unknown field: the pool ") + form};
  if (!ins.params.contains("shift")) return OpProblem{"params.shift", "is required: the back end pools int8 results"};
  std::vector<std::uint64_t> kernel{0, 0};
  if (auto problem = read_int_list(p, "kernel", 2, 1, kernel)) return OpProblem{"params.pool.kernel", problem->reason};
  Instruction window;
  window.params = p;
  WindowParams w;
  if (auto problem = read_window(window, w)) return OpProblem{"params.pool" + problem->field.substr(6), problem->reason};
  if (w.pad[0] >= kernel[0] || w.pad[1] >= kernel[0] || w.pad[2] >= kernel[1] || w.pad[3] >= kernel[1])
    return OpProblem{"params.pool.padding", "each side's padding must be smaller than the pool kernel"};
  ho = w.ho(ho, kernel[0]);
  wo = w.wo(wo, kernel[1]);
  if (ho == 0 || wo == 0) return OpProblem{"params.pool.kernel", "the pool kernel does not fit the conv's output"};
  return std::nullopt;
}

// The output: dense [ho, wo, co] (int32, or int8 with a shift), or for
// sparse_conv_compressed int8 values and their index buffer in the recursive format; with
// a pool, the pooled map.
std::optional<OpProblem> conv_output(const Instruction& ins, std::uint64_t ho, std::uint64_t wo) {
  if (auto p = pool_params(ins, ho, wo)) return p;
  const bool requant = ins.params.contains("shift"), compressed = ins.outputs.size() == 2;
  const TensorOperand& out = ins.outputs[0];
  if (compressed && !requant) return OpProblem{"params.shift", "is required: the compression blocks store int8"};
  if (auto p = needs_dtype(out, "outputs[0]", requant ? DType::Int8 : DType::Int32)) return p;
  if (out.shape.size() != 3 || out.shape[0] != ho || out.shape[1] != wo)
    return OpProblem{"outputs[0].shape", fmt::format("the output is [ho, wo, co] with ho = {}, wo = {}", ho, wo)};
  if (compressed) return recursive_pair(out, "outputs[0]", ins.outputs[1], "outputs[1]");
  return std::nullopt;
}

// seed001 ¶84: a compressed output left in the FM memory units for the next layer
// ("hand_off"), and an input in the recursive format taken from them ("handed_in").
std::optional<OpProblem> hand_off_params(const Instruction& ins) {
  for (const char* key : {"hand_off", "handed_in"})
    if (ins.params.contains(key) && !ins.params[key].is_boolean())
      return OpProblem{std::string("params.") + key, "must be true or false"};
  if (ins.params.value("hand_off", false) && ins.outputs.size() != 2)
    return OpProblem{"params.hand_off", "only sparse_conv_compressed leaves its output in the FM memory units"};
  if (ins.params.value("handed_in", false) && ins.inputs[1].dtype != DType::UInt8)
    return OpProblem{"params.handed_in", "a handed-in input is in the recursive format (a uint8 index buffer)"};
  return std::nullopt;
}

std::optional<OpProblem> sparse_conv(const Instruction& ins) {
  if (auto p = compressed_pair(ins.inputs[0], "inputs[0]", ins.inputs[1], "inputs[1]")) return p;
  if (auto p = flat_pair(ins.inputs[2], "inputs[2]", ins.inputs[3], "inputs[3]")) return p;
  std::vector<std::uint64_t> map{0, 0, 0}, kernel{0, 0};
  if (auto p = needs_param(ins.params, "ifm_shape", "[hi, wi, ci] of the dense input map")) return p;
  if (auto p = needs_param(ins.params, "kernel", "[kh, kw]")) return p;
  if (auto p = read_int_list(ins.params, "ifm_shape", 3, 1, map)) return p;
  if (auto p = read_int_list(ins.params, "kernel", 2, 1, kernel)) return p;
  WindowParams window;
  if (auto p = read_window(ins, window)) return p;
  if (window.pad[0] >= kernel[0] || window.pad[1] >= kernel[0] || window.pad[2] >= kernel[1] ||
      window.pad[3] >= kernel[1])
    return OpProblem{"params.padding", "each side's padding must be smaller than the kernel"};
  const std::uint64_t ho = window.ho(map[0], kernel[0]), wo = window.wo(map[1], kernel[1]);
  if (ho == 0 || wo == 0) return OpProblem{"params.kernel", "the kernel does not fit the padded map"};
  if (map[0] > kMaxSparseMapSide || map[1] > kMaxSparseMapSide)
    return OpProblem{"params.ifm_shape", fmt::format("rows and columns are at most {}", kMaxSparseMapSide)};
  // Indices are int32, and timing runs build a position list of the dense size.
  constexpr std::uint64_t kMaxDense = 1ull << 28;
  const std::uint64_t dense_ifm = map[0] * map[1] * map[2];
  if (dense_ifm > kMaxDense) return OpProblem{"params.ifm_shape", "the dense map may have at most 2^28 elements"};
  if (ins.outputs[0].shape.size() == 3 &&
      double(ins.outputs[0].shape[2]) * double(kernel[0]) * double(kernel[1]) * double(map[2]) > double(kMaxDense))
    return OpProblem{"params.kernel", "the dense kernel [co, kh, kw, ci] may have at most 2^28 elements"};
  if (ins.inputs[1].dtype == DType::UInt8 && ins.inputs[0].shape != map)
    return OpProblem{"inputs[0].shape", fmt::format("recursive compressed values are the map's {}", shape_text(map))};
  if (ins.inputs[0].shape[0] > dense_ifm)
    return OpProblem{"inputs[0].shape", fmt::format("a compressed map holds at most its {} dense elements", dense_ifm)};
  const bool requant = ins.params.contains("shift");
  if (requant && !json_integer(ins.params["shift"], 0, 31))
    return OpProblem{"params.shift", "must be an integer from 0 to 31"};
  if (ins.params.contains("relu") && !ins.params["relu"].is_boolean())
    return OpProblem{"params.relu", "must be true or false"};
  if (auto p = conv_output(ins, ho, wo)) return p;
  if (auto p = hand_off_params(ins)) return p;
  if (auto p = requant_params(ins)) return p;  // the bias
  AssumedSparsity assumed;
  return read_assumed_sparsity(ins.params, "assumed_sparsity", assumed);
}

}  // namespace

std::optional<OpProblem> read_assumed_sparsity(const nlohmann::json& params, const char* key, AssumedSparsity& out) {
  if (!params.contains(key)) return std::nullopt;
  const nlohmann::json& a = params[key];
  const std::string at = std::string("params.") + key;
  if (!a.is_object()) return OpProblem{at, R"(must be an object such as {"ifm": 0.9, "weights": 0.5, "seed": 7})"};
  for (const auto& [name, value] : a.items()) {
    if (name == "seed") {
      if (!json_integer(value, 0, ~0ull >> 1)) return OpProblem{at + ".seed", "must be a non-negative integer"};
      out.seed = value.get<std::uint64_t>();
    } else if (name == "ifm" || name == "weights" || name == "ofm") {
      if (auto p = fraction(value, at + "." + name)) return p;
      (name == "ifm" ? out.ifm : name == "weights" ? out.weights : out.ofm) = value.get<double>();
    } else {
      return OpProblem{at + "." + name, "unknown field: use ifm, weights, ofm and seed"};
    }
  }
  return std::nullopt;
}

std::vector<OpSpec> sparse_cluster_ops() {
  return {
      {"compress", "sparse", {{"dense", {kDram}}}, {{"values", {kDram}}, {"indices", {kDram}}}, {"assumed_zeros"},
       compress},
      {"sparse_conv", "sparse",
       {{"ifm_values", {kDram}}, {"ifm_indices", {kDram}}, {"weight_values", {kDram}}, {"weight_indices", {kDram}}},
       {{"ofmap", {kDram}}},
       {"ifm_shape", "kernel", "stride", "padding", "shift", "relu", "bias", "assumed_sparsity", "hand_off",
        "handed_in", "pool"},
       sparse_conv},
      // The same convolution with compression blocks 1375/1475/1595 in the units' back end:
      // the output leaves compressed (int8 values [ho, wo, co] and their index buffer).
      {"sparse_conv_compressed", "sparse",
       {{"ifm_values", {kDram}}, {"ifm_indices", {kDram}}, {"weight_values", {kDram}}, {"weight_indices", {kDram}}},
       {{"ofm_values", {kDram}}, {"ofm_indices", {kDram}}},
       {"ifm_shape", "kernel", "stride", "padding", "shift", "relu", "bias", "assumed_sparsity", "hand_off",
        "handed_in", "pool"},
       sparse_conv},
  };
}

}  // namespace npusim
