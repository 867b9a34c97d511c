#include "apps/frontend/WorkloadReader.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/compiler/planning/SplitPlanner.h"
#include "apps/frontend/onnx/OnnxWorkload.h"
#include "sim/common/InputError.h"
#include "sim/tensor/WindowGeometry.h"
#include "sim/common/InputFile.h"
#include "sim/common/JsonInteger.h"
#include "sim/common/StrictJson.h"
#include "sim/common/NearestName.h"

namespace npusim {

namespace {

using Json = nlohmann::json;

// Where we are while reading, so every message names the file and the layer.
struct Place {
  const std::string& file;
  std::string where;  // "layers[3] (conv2)" or "line 7"
  [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
    std::string loc = where;
    if (!field.empty()) loc += (loc.empty() ? "" : ", ") + std::string("field '") + field + "'";
    throw InputError(file, loc, reason);
  }
};

// Every extent, count, stride and padding of a layer: more than any network needs.
constexpr std::uint32_t kMaxExtent = 1u << 24;

void reject_unknown_keys(const Json& obj, const std::vector<std::string>& known, const Place& place) {
  for (const auto& item : obj.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    const std::string near = nearest_name(item.key(), known);
    place.fail(item.key(), near.empty() ? "unknown field" : fmt::format("unknown field (did you mean '{}'?)", near));
  }
}

std::uint32_t positive(const Json& obj, const char* key, const Place& place, std::uint32_t fallback = 0) {
  if (!obj.contains(key)) {
    if (fallback == 0) place.fail(key, "is required");
    return fallback;
  }
  const auto n = json_integer_as<std::uint32_t>(obj.at(key), 1, kMaxExtent);
  if (!n) place.fail(key, fmt::format("must be an integer from 1 to {}", kMaxExtent));
  return *n;
}

double fraction(const Json& obj, const char* key, const Place& place) {
  if (!obj.contains(key)) return 0;
  const Json& v = obj.at(key);
  if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1) place.fail(key, "must be a number from 0 to 1");
  return v.get<double>();
}

std::string text(const Json& obj, const char* key, const Place& place, const std::string& fallback) {
  if (!obj.contains(key)) return fallback;
  if (!obj.at(key).is_string()) place.fail(key, "must be a string");
  return obj.at(key).get<std::string>();
}

bool flag(const Json& obj, const char* key, const Place& place) {
  if (!obj.contains(key)) return false;
  if (!obj.at(key).is_boolean()) place.fail(key, "must be true or false");
  return obj.at(key).get<bool>();
}

void check_dtype(const Json& obj, const Place& place) {
  if (text(obj, "dtype", place, "int8") != "int8")
    place.fail("dtype", "only int8 workloads are compiled for now (conv accumulates in int32, then requantizes)");
}

// Output extent of a window; fails when the kernel is larger than the padded input.
std::uint32_t window_out(std::uint32_t in, std::uint32_t lo, std::uint32_t hi, std::uint32_t k, std::uint32_t s,
                         const Place& place) {
  const std::uint64_t out = window_outputs(in, lo, hi, k, s);
  if (out == 0) place.fail("", fmt::format("kernel {} is larger than the padded input {}", k, in + lo + hi));
  return std::uint32_t(out);
}

// "padding": P, [t, b, l, r] or "same" (TensorFlow rule: extra row/column at the bottom/right).
std::array<std::uint32_t, 4> read_padding(const Json& obj, const Layer& l, std::uint32_t keh, std::uint32_t kew,
                                          const Place& place) {
  if (!obj.contains("padding")) return {0, 0, 0, 0};
  const Json& v = obj.at("padding");
  auto side = [](const Json& e) { return json_integer_as<std::uint32_t>(e, 0, kMaxExtent); };
  if (const auto p = side(v)) return {*p, *p, *p, *p};
  if (v == "same") {
    const auto th = std::uint32_t(same_padding(l.in.h, keh, l.sh)), tw = std::uint32_t(same_padding(l.in.w, kew, l.sw));
    return {th / 2, th - th / 2, tw / 2, tw - tw / 2};
  }
  if (v.is_array() && v.size() == 4 && std::all_of(v.begin(), v.end(), [&](const Json& e) { return side(e).has_value(); }))
    return {*side(v[0]), *side(v[1]), *side(v[2]), *side(v[3])};
  place.fail("padding", fmt::format("must be an integer from 0 to {}, a list [top, bottom, left, right] of them, or "
                                    "\"same\"", kMaxExtent));
}

// A side padded by the kernel's whole extent or more gives output rows or columns
// that see padding only. The compiler cuts a layer into bands of real input rows
// and has none to give such rows (padding 40 on 12x12 wrapped a uint32_t in the
// tiler), so the layer is refused here; the same rule as pool's.
void check_conv_padding(const std::array<std::uint32_t, 4>& pad, std::uint32_t keh, std::uint32_t kew,
                        const Place& place) {
  static const char* const kSides[] = {"top", "bottom", "left", "right"};
  for (std::size_t i = 0; i < 4; ++i) {
    const std::uint32_t extent = i < 2 ? keh : kew;
    if (pad[i] < extent) continue;
    place.fail("padding", fmt::format("{} padding {} is not smaller than the kernel's extent {} ({}), so whole output "
                                      "{} would see padding only; use at most {}",
                                      kSides[i], pad[i], extent, i < 2 ? "kh after dilation" : "kw after dilation",
                                      i < 2 ? "rows" : "columns", extent - 1));
  }
}

void read_strides(const Json& obj, Layer& l, const Place& place) {
  const std::uint32_t both = positive(obj, "stride", place, 1);
  l.sh = positive(obj, "sh", place, both);
  l.sw = positive(obj, "sw", place, both);
}

void read_kernel(const Json& obj, Layer& l, const Place& place) {
  const std::uint32_t both = obj.contains("k") ? positive(obj, "k", place) : 0;
  l.kh = positive(obj, "kh", place, both);
  l.kw = positive(obj, "kw", place, both);
}

// Optional hi/wi/ci (or m/k for fc) must agree with the tensor the layer reads.
void check_declared(const Json& obj, const char* key, std::uint32_t actual, const Place& place) {
  if (obj.contains(key) && positive(obj, key, place) != actual)
    place.fail(key, fmt::format("is {} but the layer's input tensor has {}", obj.at(key).dump(), actual));
}

void read_conv(const Json& obj, Layer& l, const Place& place) {
  check_declared(obj, "hi", l.in.h, place);
  check_declared(obj, "wi", l.in.w, place);
  check_declared(obj, "ci", l.in.c, place);
  read_kernel(obj, l, place);
  read_strides(obj, l, place);
  l.dilation = positive(obj, "dilation", place, 1);
  if (l.dilation > 1024) place.fail("dilation", "must be from 1 to 1024 (the trace format's limit)");
  const std::uint32_t groups = positive(obj, "groups", place, 1);
  const std::uint32_t co = positive(obj, "co", place, groups == l.in.c ? l.in.c : 0);
  if (groups != 1) {
    if (groups != l.in.c || co != l.in.c)
      place.fail("groups", fmt::format("only depthwise grouping is supported (groups = ci = co = {}), got groups={} co={}",
                                       l.in.c, groups, co));
    l.kind = LayerKind::Depthwise;
  }
  const std::uint64_t keh64 = dilated_extent(l.kh, l.dilation), kew64 = dilated_extent(l.kw, l.dilation);
  if (std::max(keh64, kew64) > kMaxExtent)
    place.fail("dilation", fmt::format("the dilated kernel ({} x {}) is larger than {}", keh64, kew64, kMaxExtent));
  const std::uint32_t keh = std::uint32_t(keh64), kew = std::uint32_t(kew64);
  l.pad = read_padding(obj, l, keh, kew, place);
  check_conv_padding(l.pad, keh, kew, place);
  l.out = {window_out(l.in.h, l.pad[0], l.pad[1], keh, l.sh, place),
           window_out(l.in.w, l.pad[2], l.pad[3], kew, l.sw, place), co};
}

void read_fc(const Json& obj, Layer& l, const Place& place) {
  check_declared(obj, "k", l.in.c, place);
  check_declared(obj, "m", l.in.h * l.in.w, place);
  l.out = {l.in.h, l.in.w, positive(obj, "n", place)};
}

void read_pool(const Json& obj, Layer& l, const Place& place) {
  const std::string mode = text(obj, "mode", place, "max");
  if (mode != "max" && mode != "avg") place.fail("mode", "must be \"max\" or \"avg\"");
  l.pool_max = mode == "max";
  if (flag(obj, "global", place)) {
    l.kh = l.in.h;
    l.kw = l.in.w;
  } else {
    read_kernel(obj, l, place);
  }
  read_strides(obj, l, place);
  l.pad = read_padding(obj, l, l.kh, l.kw, place);
  if (l.pad[0] >= l.kh || l.pad[1] >= l.kh || l.pad[2] >= l.kw || l.pad[3] >= l.kw)
    place.fail("padding", "pool padding must be smaller than the window");
  l.out = {window_out(l.in.h, l.pad[0], l.pad[1], l.kh, l.sh, place),
           window_out(l.in.w, l.pad[2], l.pad[3], l.kw, l.sw, place), l.in.c};
}

// heads must cut a tensor's channels into equal segments.
std::uint32_t read_heads(const Json& obj, const MapShape& t, const char* operand, const Place& place) {
  const std::uint32_t heads = positive(obj, "heads", place, 1);
  if (t.c % heads != 0)
    place.fail("heads", fmt::format("{} divides {}'s {} channels unevenly (each head takes an equal segment)", heads,
                                    operand, t.c));
  return heads;
}

// Matmul: A's rows x its head segment of k channels, times B's head segment (see
// MatmulShape); with a KV cache, B's rows are the last of kv_cache_tokens cached rows.
void read_matmul(const Json& obj, Layer& l, const Place& place) {
  l.heads = read_heads(obj, l.in, "inputs[0]", place);
  read_heads(obj, l.in_b, "inputs[1]", place);
  l.transpose_b = flag(obj, "transpose_b", place);
  const std::uint32_t b_rows = l.in_b.h * l.in_b.w;
  if (obj.contains("kv_cache_tokens")) {
    l.kv_cache_tokens = positive(obj, "kv_cache_tokens", place);
    if (l.kv_cache_tokens < b_rows)
      place.fail("kv_cache_tokens", fmt::format("{} is fewer than the {} rows inputs[1] adds to the cache",
                                                l.kv_cache_tokens, b_rows));
  }
  const MatmulShape s = l.matmul();
  const std::uint32_t b_k = l.transpose_b ? l.in_b.c / l.heads : s.b_rows + s.cached_rows;
  if (b_k != s.k)
    place.fail("inputs", fmt::format("the shared dimension differs: A gives k = {} per head (c {} / heads {}) but B "
                                     "gives {} ({})",
                                     s.k, l.in.c, l.heads, b_k,
                                     l.transpose_b ? "its channels per head, transpose_b" : "its rows, with the cache"));
  check_declared(obj, "m", s.m, place);
  check_declared(obj, "k", s.k, place);
  check_declared(obj, "n", s.n, place);
  if (std::uint64_t(s.n) * s.heads > kMaxExtent)
    place.fail("", fmt::format("the output has {} x {} channels, more than {}", s.heads, s.n, kMaxExtent));
  l.out = {l.in.h, l.in.w, s.n * s.heads};
}

void read_row_op(const Json& obj, Layer& l, const Place& place) {
  if (l.relu) place.fail("relu", "is not fused into softmax, layernorm or gelu; follow it with a relu layer");
  if (l.kind == LayerKind::Softmax) l.heads = read_heads(obj, l.in, "the input", place);
  if (obj.contains("frac_bits")) {
    const auto f = json_integer_as<std::uint32_t>(obj.at("frac_bits"), 0, 7);
    if (!f) place.fail("frac_bits", fmt::format("must be an integer from 0 to 7, got {}", obj.at("frac_bits").dump()));
    l.frac_bits = *f;
  }
  l.out = l.in;
}

// Concat: the inputs' channels one after the other, at every position of one h x w map.
void read_concat(Layer& l, const std::map<std::string, MapShape>& shapes, const Place& place) {
  if (l.relu) place.fail("relu", "is not fused into a concat (it only moves data); follow it with a relu layer");
  std::uint64_t channels = 0;
  for (const auto& name : l.inputs) {
    const MapShape& s = shapes.at(name);
    if (s.h != l.in.h || s.w != l.in.w)
      place.fail("inputs", fmt::format("'{}' is {}x{} (h x w) but '{}' is {}x{}; a concat joins the channels of maps "
                                       "of one size", name, s.h, s.w, l.inputs[0], l.in.h, l.in.w));
    l.concat_channels.push_back(s.c);
    channels += s.c;
  }
  if (channels > kMaxExtent)
    place.fail("inputs", fmt::format("the output would have {} channels, more than {}", channels, kMaxExtent));
  l.out = {l.in.h, l.in.w, std::uint32_t(channels)};
}

const std::map<std::string, std::vector<std::string>>& layer_keys() {
  static const std::vector<std::string> common = {"name", "type", "input", "dtype", "relu", "weight_sparsity",
                                                  "activation_sparsity"};
  static const std::map<std::string, std::vector<std::string>> extra = {
      {"conv", {"hi", "wi", "ci", "co", "k", "kh", "kw", "stride", "sh", "sw", "padding", "dilation", "groups",
                "weights", "shift", "engine", "split"}},
      {"fc", {"m", "n", "k", "weights", "shift", "engine", "split"}},
      {"gemm", {"m", "n", "k", "weights", "shift", "engine", "split"}},
      {"pool", {"mode", "k", "kh", "kw", "stride", "sh", "sw", "padding", "global"}},
      {"add", {"inputs"}},
      {"concat", {"inputs"}},
      {"relu", {}},
      {"matmul", {"inputs", "heads", "transpose_b", "kv_cache_tokens", "m", "k", "n", "shift"}},
      {"softmax", {"heads", "frac_bits"}},
      {"layernorm", {}},
      {"gelu", {"frac_bits"}},
  };
  static std::map<std::string, std::vector<std::string>> all;
  if (all.empty())
    for (const auto& [type, keys] : extra) {
      all[type] = common;
      all[type].insert(all[type].end(), keys.begin(), keys.end());
    }
  return all;
}

bool valid_name(const std::string& s) {
  if (s.empty() || s[0] == '.' || s.size() > 128) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.'; });
}

// A "split" key (the workload's default, or one layer's): how its cores share it.
std::string split_choice(const Json& obj, const Place& place) {
  const std::string split = text(obj, "split", place, "");
  if (!split.empty() && !parse_split_choice(split))
    place.fail("split", fmt::format("'{}' must be one of {}", split, fmt::join(split_choice_names(), ", ")));
  return split;
}

class JsonReader {
 public:
  JsonReader(const std::string& file, Workload& w) : file_(file), w_(w) {}

  void read_layer(const Json& obj, std::size_t index) {
    Place place{file_, fmt::format("layers[{}]", index)};
    if (!obj.is_object()) place.fail("", "a layer must be a JSON object");
    Layer l;
    l.name = text(obj, "name", place, fmt::format("layer{}", index));
    place.where += " (" + l.name + ")";
    if (!valid_name(l.name)) place.fail("name", "use letters, digits, '_', '-' and '.', not starting with '.'");
    if (shapes_.count(l.name)) place.fail("name", "is used by an earlier layer (or is the reserved name 'input')");
    const std::string type = text(obj, "type", place, "");
    const auto keys = layer_keys().find(type);
    if (keys == layer_keys().end())
      place.fail("type", fmt::format("must be one of conv, fc, gemm, pool, add, concat, relu, matmul, softmax, "
                                     "layernorm, gelu; got '{}'", type));
    reject_unknown_keys(obj, keys->second, place);
    check_dtype(obj, place);
    l.inputs = read_inputs(obj, type, place);
    l.in = shapes_.at(l.inputs[0]);
    if (l.inputs.size() == 2) l.in_b = shapes_.at(l.inputs[1]);
    l.relu = flag(obj, "relu", place);
    l.weight_sparsity = fraction(obj, "weight_sparsity", place);
    l.activation_sparsity = fraction(obj, "activation_sparsity", place);
    l.weights_file = text(obj, "weights", place, "");
    l.engine = text(obj, "engine", place, "");
    if (!l.engine.empty() && l.engine != "matrix" && l.engine != "shader" && l.engine != "sparse")
      place.fail("engine", fmt::format("must be \"matrix\" (the Wfold unit), \"shader\" (the GPU-style shader "
                                       "core) or \"sparse\" (the sparse tensor cluster), got '{}'", l.engine));
    l.split = split_choice(obj, place);
    if (type == "conv") {
      read_conv(obj, l, place);
    } else if (type == "fc" || type == "gemm") {
      l.kind = LayerKind::Fc;
      read_fc(obj, l, place);
    } else if (type == "pool") {
      l.kind = LayerKind::Pool;
      read_pool(obj, l, place);
    } else if (type == "matmul") {
      l.kind = LayerKind::Matmul;
      read_matmul(obj, l, place);
    } else if (type == "concat") {
      l.kind = LayerKind::Concat;
      read_concat(l, shapes_, place);
    } else if (type == "softmax" || type == "layernorm" || type == "gelu") {
      l.kind = type == "softmax" ? LayerKind::Softmax : type == "gelu" ? LayerKind::Gelu : LayerKind::LayerNorm;
      read_row_op(obj, l, place);
    } else {
      l.kind = type == "add" ? LayerKind::Add : LayerKind::Relu;
      l.out = l.in;
      if (type == "add" && !(shapes_.at(l.inputs[1]) == l.in))
        place.fail("inputs", fmt::format("'{}' and '{}' have different shapes", l.inputs[0], l.inputs[1]));
    }
    if (l.has_weights() || l.kind == LayerKind::Matmul) {
      const std::uint64_t terms = l.kind == LayerKind::Depthwise ? std::uint64_t(l.kh) * l.kw
                                  : l.kind == LayerKind::Matmul ? l.matmul().k
                                                                : l.weight_elements() / l.out.c;
      l.shift = default_requant_shift(terms);
      if (obj.contains("shift")) {
        const auto shift = json_integer_as<std::uint32_t>(obj.at("shift"), 0, 31);
        if (!shift) place.fail("shift", fmt::format("must be an integer from 0 to 31, got {}", obj.at("shift").dump()));
        l.shift = *shift;
      }
    }
    shapes_[l.name] = l.out;
    previous_ = l.name;
    w_.layers.push_back(std::move(l));
  }

  void start(const MapShape& input) {
    shapes_["input"] = input;
    previous_ = "input";
  }

 private:
  // "input": one tensor (default: the previous layer's); add and matmul read "inputs":
  // [a, b], concat "inputs": [a, b, ...].
  std::vector<std::string> read_inputs(const Json& obj, const std::string& type, const Place& place) {
    std::vector<std::string> names;
    const bool pair = type == "add" || type == "matmul", listed = pair || type == "concat";
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
    for (const auto& n : names)
      if (!shapes_.count(n)) place.fail(key, fmt::format("'{}' is neither 'input' nor an earlier layer", n));
    return names;
  }

  const std::string& file_;
  Workload& w_;
  std::map<std::string, MapShape> shapes_;
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

}  // namespace

Workload parse_workload_json(const std::string& body, const std::string& path) {
  Json top = parse_strict_json<Json>(body, path);
  Place place{path, ""};
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
  w.split = split_choice(top, place);
  w.input = read_input_shape(top, top["layers"], place, w.input_file);
  JsonReader reader(path, w);
  reader.start(w.input);
  for (std::size_t i = 0; i < top["layers"].size(); ++i) reader.read_layer(top["layers"][i], i);
  return w;
}

namespace {

std::vector<std::string> split_csv_row(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) {
    const auto first = cell.find_first_not_of(" \t\r");
    const auto last = cell.find_last_not_of(" \t\r");
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
  }
  return cells;
}

std::uint32_t csv_number(const std::string& cell, const char* column, const Place& place) {
  std::size_t used = 0;
  unsigned long v = 0;
  try {
    v = std::stoul(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != cell.size() || v == 0 || v > kMaxExtent)
    place.fail(column, fmt::format("must be a positive integer, got '{}'", cell));
  return std::uint32_t(v);
}

}  // namespace

std::string sanitized_layer_name(std::string s) {
  for (char& c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.')) c = '_';
  if (s.empty() || s[0] == '.') s = "layer" + s;
  return s.size() > 128 ? s.substr(s.size() - 128) : s;
}

std::pair<std::string, std::vector<std::int64_t>> parse_input_shape(const std::string& text) {
  const auto eq = text.rfind('=');
  std::vector<std::int64_t> dims;
  if (eq != std::string::npos && eq > 0) {
    std::stringstream ss(text.substr(eq + 1));
    std::string cell;
    while (std::getline(ss, cell, 'x')) {
      const auto n = cell.empty() || cell.find_first_not_of("0123456789") != std::string::npos || cell.size() > 8
                         ? 0 : std::stoll(cell);
      if (n <= 0 || n > kMaxExtent) {
        dims.clear();
        break;
      }
      dims.push_back(n);
    }
  }
  if (dims.empty())
    throw InputError("", "--input-shape", fmt::format("'{}' must be NAME=D1xD2x... with positive integers, e.g. "
                                                      "input=1x3x224x224", text));
  return {text.substr(0, eq), dims};
}

Workload parse_scale_sim_csv(const std::string& body, const std::string& path) {
  static const char* kColumns[] = {"Layer name", "IFMAP Height", "IFMAP Width", "Filter Height",
                                   "Filter Width", "Channels", "Num Filter", "Strides"};
  Workload w;
  w.file = path;
  w.name = "scale-sim";
  w.independent_layers = true;
  std::stringstream lines(body);
  std::string line;
  std::set<std::string> names;
  for (std::uint32_t number = 1; std::getline(lines, line); ++number) {
    auto cells = split_csv_row(line);
    if (std::all_of(cells.begin(), cells.end(), [](const std::string& c) { return c.empty(); })) continue;
    std::string first = cells[0];
    std::transform(first.begin(), first.end(), first.begin(), ::tolower);
    if (first == "layer name") continue;  // the header row
    Place place{path, fmt::format("line {}", number)};
    if (cells.size() < 8) place.fail("", fmt::format("needs 8 columns ({}, ...), got {}", kColumns[0], cells.size()));
    Layer l;
    l.name = sanitized_layer_name(cells[0]);
    if (!names.insert(l.name).second) place.fail(kColumns[0], fmt::format("'{}' appears twice", l.name));
    l.line = number;
    l.in = {csv_number(cells[1], kColumns[1], place), csv_number(cells[2], kColumns[2], place),
            csv_number(cells[5], kColumns[5], place)};
    l.kh = csv_number(cells[3], kColumns[3], place);
    l.kw = csv_number(cells[4], kColumns[4], place);
    l.sh = l.sw = csv_number(cells[7], kColumns[7], place);
    l.out = {window_out(l.in.h, 0, 0, l.kh, l.sh, place), window_out(l.in.w, 0, 0, l.kw, l.sw, place),
             csv_number(cells[6], kColumns[6], place)};
    l.shift = default_requant_shift(l.weight_elements() / l.out.c);
    w.layers.push_back(std::move(l));
  }
  if (w.layers.empty()) throw InputError(path, "", "the layer table has no layer rows");
  w.input = w.layers[0].in;
  return w;
}

Workload read_workload(const std::string& path, const WorkloadOptions& options) {
  const std::string body = read_input_file(path);
  if (looks_like_onnx(path, body)) return read_onnx_workload(body, path, options);
  if (!options.input_shapes.empty())
    throw InputError(path, "--input-shape", "only ONNX models take input shapes; JSON and CSV workloads give theirs");
  const bool csv = path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  return csv ? parse_scale_sim_csv(body, path) : parse_workload_json(body, path);
}

}  // namespace npusim
