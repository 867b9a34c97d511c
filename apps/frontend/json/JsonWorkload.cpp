#include <algorithm>

#include <fmt/format.h>

#include "apps/frontend/json/JsonFields.h"
#include "apps/frontend/json/TextWorkloads.h"
#include "apps/frontend/workload/LayerEngines.h"
#include "sim/common/JsonInteger.h"
#include "sim/common/StrictJson.h"

namespace npusim {

namespace {

class JsonReader {
 public:
  JsonReader(const std::string& file, Workload& w) : file_(file), w_(w) {}

  void start(const MapShape& input) {
    shapes_["input"] = input;
    previous_ = "input";
  }

  void read_layer(const Json& obj, std::size_t index) {
    Place place{file_, fmt::format("layers[{}]", index)};
    if (!obj.is_object()) place.fail("", "a layer must be a JSON object");
    Layer l;
    l.name = text(obj, "name", place, fmt::format("layer{}", index));
    place.where += " (" + l.name + ")";
    check_layer_name(l.name, shapes_, place);
    const std::string type = read_type(obj, place);
    check_dtype(obj, place);
    l.inputs = read_inputs(obj, type, place);
    l.in = shapes_.at(l.inputs[0]);
    if (l.inputs.size() == 2) l.in_b = shapes_.at(l.inputs[1]);
    read_common(obj, l, place);
    read_layer_fields(obj, type, l, shapes_, place);
    if (l.kind == LayerKind::Embedding) check_token_ids(l, w_.batch, w_.seed, place);
    if (l.has_weights() || l.kind == LayerKind::Matmul || l.kind == LayerKind::Mul) l.shift = read_shift(obj, l, place);
    shapes_[l.name] = l.out;
    previous_ = l.name;
    w_.layers.push_back(std::move(l));
  }

 private:
  // "type", and then only the fields a layer of that type has.
  static std::string read_type(const Json& obj, const Place& place) {
    const std::string type = text(obj, "type", place, "");
    const auto keys = layer_keys().find(type);
    if (keys == layer_keys().end())
      place.fail("type", fmt::format("must be one of conv, fc, gemm, pool, add, concat, relu, matmul, softmax, "
                                     "layernorm, gelu, sigmoid, hardsigmoid, hardswish, silu, tanh, mul, "
                                     "add_constant, mask, embedding, upsample, concat_tokens, gather_channels; got '{}'",
                                     type));
    reject_unknown_keys(obj, keys->second, place);
    return type;
  }

  // The fields every layer type may have.
  static void read_common(const Json& obj, Layer& l, const Place& place) {
    l.relu = flag(obj, "relu", place);
    l.weight_sparsity = fraction(obj, "weight_sparsity", place);
    l.activation_sparsity = fraction(obj, "activation_sparsity", place);
    l.weights_file = text(obj, "weights", place, "");
    l.engine = text(obj, "engine", place, "");
    check_layer_engine(l.engine, place);
    l.split = split_field(obj, place);
  }

  static std::uint32_t read_shift(const Json& obj, const Layer& l, const Place& place) {
    if (!obj.contains("shift")) return default_layer_shift(l);
    return checked_shift(integer(obj.at("shift")), obj.at("shift").dump(), place);
  }

  // "input": one tensor (default: the previous layer's); add and matmul read "inputs":
  // [a, b], concat "inputs": [a, b, ...].
  std::vector<std::string> read_inputs(const Json& obj, const std::string& type, const Place& place) const {
    std::vector<std::string> names;
    const bool pair = type == "add" || type == "matmul" || type == "mul", listed = pair || type == "concat";
    const char* key = listed ? "inputs" : "input";
    const char* form = pair ? "[a, b]" : "[a, b, ...]";
    if (!obj.contains(key)) {
      if (listed) place.fail("inputs", fmt::format("{} needs \"inputs\": {}", type, form));
      return {previous_};
    }
    const Json& v = obj.at(key);
    if (!listed && v.is_string()) names = {v.get<std::string>()};
    if (listed && v.is_array() && (pair ? v.size() == 2 : v.size() >= 2) &&
        std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_string(); }))
      for (const Json& e : v) names.push_back(e.get<std::string>());
    if (names.empty())
      place.fail(key, !listed ? "must be a tensor name"
                      : pair  ? "must be a list of two tensor names"
                              : "must be a list of two or more tensor names");
    check_inputs_known(names, shapes_, key, place);
    return names;
  }

  const std::string& file_;
  Workload& w_;
  TensorShapes shapes_;
  std::string previous_;
};

MapShape read_input_shape(const Json& top, const Json& layers, const Place& place, std::string& file) {
  if (top.contains("input")) {
    const Json& in = top.at("input");
    Place p{place.file, "input"};
    if (!in.is_object()) p.fail("", "must be an object {\"h\", \"w\", \"c\"}");
    reject_unknown_keys(in, {"h", "w", "c", "file"}, p);
    file = text(in, "file", p, "");
    return {positive(in, "h", p), positive(in, "w", p), positive(in, "c", p)};
  }
  // Without "input", the first layer declares it (hi/wi/ci, or m/k for a gemm).
  const Json& first = layers.at(0);
  Place p{place.file, "layers[0]"};
  if (first.contains("m")) return {1, positive(first, "m", p), positive(first, "k", p)};
  return {positive(first, "hi", p), positive(first, "wi", p), positive(first, "ci", p)};
}

// The workload's own fields: everything but its layers.
Workload read_header(Json& top, const std::string& path, const Place& place) {
  if (!top.is_object()) place.fail("", "a workload must be a JSON object with a \"layers\" list");
  reject_unknown_keys(top, {"name", "batch", "input", "seed", "dtype", "layers", "description", "split"}, place);
  check_dtype(top, place);
  if (!top.contains("layers") || !top["layers"].is_array() || top["layers"].empty())
    place.fail("layers", "must be a non-empty list of layers");
  Workload w;
  w.file = path;
  w.name = text(top, "name", place, "workload");
  w.batch = positive(top, "batch", place, 1);
  if (top.contains("seed")) {
    const auto seed = json_integer(top["seed"]);
    if (!seed) place.fail("seed", "must be a non-negative integer");
    w.seed = *seed;
  }
  w.split = split_field(top, place);
  w.input = read_input_shape(top, top["layers"], place, w.input_file);
  return w;
}

}  // namespace

Workload parse_workload_json(const std::string& body, const std::string& path) {
  Json top = parse_strict_json<Json>(body, path);
  Workload w = read_header(top, path, Place{path, ""});
  JsonReader reader(path, w);
  reader.start(w.input);
  for (std::size_t i = 0; i < top["layers"].size(); ++i) reader.read_layer(top["layers"][i], i);
  return w;
}

}  // namespace npusim
