#include "sim/trace/TraceFields.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/common/InputError.h"
#include "sim/common/JsonInteger.h"
#include "sim/common/NearestName.h"

namespace npusim {

std::string did_you_mean(const std::string& word, const std::vector<std::string>& choices) {
  std::string near = nearest_name(word, choices);
  return near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near);
}

namespace {
std::string field_path(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}
}  // namespace

void TracePlace::fail(const std::string& reason) const {
  throw InputError(file, fmt::format("line {}", line), reason);
}

void TracePlace::fail(const std::string& field, const std::string& reason) const {
  throw InputError(file, fmt::format("line {}, field '{}'", line, field), reason);
}

const nlohmann::json& required_field(const nlohmann::json& object, const std::string& key, const TracePlace& place,
                                     const std::string& field) {
  auto it = object.find(key);
  if (it == object.end()) place.fail(field, "missing required field");
  return *it;
}

void reject_unknown_keys(const nlohmann::json& object, const std::vector<std::string>& known, const TracePlace& place,
                         const std::string& prefix) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string accepted = known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "));
    place.fail(field_path(prefix, key), fmt::format("unknown field{} (accepted: {})", did_you_mean(key, known), accepted));
  }
}

std::uint64_t read_uint(const nlohmann::json& v, const TracePlace& place, const std::string& field,
                        std::uint64_t limit) {
  if (!v.is_number_unsigned())
    place.fail(field, fmt::format("must be a non-negative integer, got {} {}", v.type_name(), v.dump()));
  const auto n = json_integer(v, 0, limit);
  if (!n) place.fail(field, fmt::format("{} is too large (at most {})", v.dump(), limit));
  return *n;
}

std::string read_string(const nlohmann::json& v, const TracePlace& place, const std::string& field) {
  if (!v.is_string()) place.fail(field, fmt::format("must be a string, got {} {}", v.type_name(), v.dump()));
  return v.get<std::string>();
}

std::vector<std::uint64_t> read_shape(const nlohmann::json& v, const TracePlace& place, const std::string& field) {
  if (!v.is_array() || v.empty()) place.fail(field, "must be a non-empty list of positive integers");
  std::vector<std::uint64_t> shape;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto dim = json_integer(v[i], 1);
    if (!dim)
      place.fail(field, fmt::format("dimension {} is {}; every dimension must be a positive integer", i, v[i].dump()));
    shape.push_back(*dim);
  }
  return shape;
}

DType read_dtype(const nlohmann::json& v, const TracePlace& place, const std::string& field) {
  std::string name = read_string(v, place, field);
  if (auto t = parse_dtype(name)) return *t;
  std::vector<std::string> names;
  std::string choices = dtype_choices();  // "int8, uint8, ..."
  for (std::size_t start = 0, comma; start < choices.size(); start = comma + 2) {
    comma = std::min(choices.find(", ", start), choices.size());
    names.push_back(choices.substr(start, comma - start));
  }
  place.fail(field, fmt::format("unknown dtype '{}'{}; choose one of {}", name, did_you_mean(name, names),
                                dtype_choices()));
}

AddressSpace read_space(const nlohmann::json& v, const TracePlace& place, const std::string& field) {
  std::string name = read_string(v, place, field);
  for (AddressSpace s :
       {AddressSpace::Dram, AddressSpace::Nram, AddressSpace::Wram, AddressSpace::Cluster, AddressSpace::Rf})
    if (name == address_space_name(s)) return s;
  place.fail(field, fmt::format("unknown address space '{}'{}; choose one of dram, nram, wram, cluster, rf", name,
                                did_you_mean(name, {"dram", "nram", "wram", "cluster", "rf"})));
}

std::uint32_t read_core(const nlohmann::json& v, const HardwareConfig& cfg, const TracePlace& place,
                        const std::string& field) {
  std::uint64_t core = read_uint(v, place, field);
  if (core >= cfg.chip.cores())
    place.fail(field, fmt::format("core {} does not exist; this config has {} core(s), numbered 0..{}", core,
                                  cfg.chip.cores(), cfg.chip.cores() - 1));
  return static_cast<std::uint32_t>(core);
}

std::uint64_t space_capacity(AddressSpace space, std::uint32_t core, const HardwareConfig& cfg) {
  switch (space) {
    case AddressSpace::Dram: return cfg.chip.dram.capacity_bytes;
    case AddressSpace::Nram: return cfg.core_of(core).nram.capacity_bytes;
    case AddressSpace::Wram: return cfg.core_of(core).wram.capacity_bytes;
    case AddressSpace::Cluster: return cfg.chip.cluster_cache.enabled ? cfg.chip.cluster_cache.capacity_bytes : 0;
    case AddressSpace::Rf: return cfg.core_of(core).register_file.capacity_bytes;
  }
  return 0;
}

void check_fits(AddressSpace space, std::uint32_t core, std::uint64_t offset, std::uint64_t bytes,
                const HardwareConfig& cfg, const TracePlace& place, const std::string& field) {
  if (space == AddressSpace::Cluster && !cfg.chip.cluster_cache.enabled)
    place.fail(field, "this chip has no cluster cache; set /chip/cluster_cache/enabled to true in the config "
                      "(as configs/smp-2x2-cache.json does) or use dram");
  if (space == AddressSpace::Rf && cfg.core_of(core).register_file.capacity_bytes == 0)
    place.fail(field, fmt::format("core {} has no register file; give its kind /register_file/capacity_bytes "
                                  "(as configs/gpu-shader.json does)", core));
  std::uint64_t capacity = space_capacity(space, core, cfg);
  std::uint64_t end = 0;
  bool overflow = __builtin_add_overflow(offset, bytes, &end);
  if (!overflow && end <= capacity) return;
  std::string end_text = overflow ? fmt::format("{} + {}", offset, bytes) : std::to_string(end);
  place.fail(field, fmt::format("tensor occupies bytes [{}, {}) of {}, beyond its capacity of {} bytes", offset,
                                end_text, address_space_name(space), capacity));
}

std::uint64_t checked_bytes(const std::vector<std::uint64_t>& shape, DType dtype, const TracePlace& place,
                            const std::string& field) {
  std::uint64_t bytes = dtype_size(dtype);
  for (auto d : shape)
    if (__builtin_mul_overflow(bytes, d, &bytes))
      place.fail(field, fmt::format("shape {} is too large to address", shape_text(shape)));
  return bytes;
}

TensorOperand read_tensor(const nlohmann::json& v, std::uint32_t core, const HardwareConfig& cfg,
                          const TracePlace& place, const std::string& field) {
  if (!v.is_object()) place.fail(field, fmt::format("a tensor must be an object, got {}", v.type_name()));
  reject_unknown_keys(v, {"space", "offset", "shape", "layout", "dtype", "tags", "pitch", "cluster"}, place, field);
  TensorOperand t;
  t.space = read_space(required_field(v, "space", place, field + ".space"), place, field + ".space");
  t.offset = read_uint(required_field(v, "offset", place, field + ".offset"), place, field + ".offset");
  t.shape = read_shape(required_field(v, "shape", place, field + ".shape"), place, field + ".shape");
  t.dtype = read_dtype(required_field(v, "dtype", place, field + ".dtype"), place, field + ".dtype");
  if (v.contains("layout")) t.layout = read_string(v.at("layout"), place, field + ".layout");
  if (v.contains("tags")) {
    const auto& tags = v.at("tags");
    if (!tags.is_array()) place.fail(field + ".tags", "must be a list of strings");
    for (std::size_t i = 0; i < tags.size(); ++i)
      t.tags.push_back(read_string(tags[i], place, fmt::format("{}.tags[{}]", field, i)));
  }
  const std::uint64_t bytes = checked_bytes(t.shape, t.dtype, place, field + ".shape");
  if (v.contains("pitch")) {
    t.pitch = read_uint(v.at("pitch"), place, field + ".pitch");
    if (t.pitch < t.row_bytes())
      place.fail(field + ".pitch", fmt::format("pitch {} is shorter than one innermost row ({} bytes); rows would "
                                               "overlap",
                                               t.pitch, t.row_bytes()));
  }
  std::uint64_t span = bytes;  // pitched: (rows - 1) * pitch + one row
  if (bytes > 0 && !t.dense() &&
      (__builtin_mul_overflow(bytes / t.row_bytes() - 1, t.pitch, &span) ||
       __builtin_add_overflow(span, t.row_bytes(), &span)))
    place.fail(field + ".pitch", fmt::format("pitch {} makes the tensor too large to address", t.pitch));
  if (v.contains("cluster")) {
    if (t.space != AddressSpace::Cluster) place.fail(field + ".cluster", "names a cluster's cache: only for space cluster");
    const std::uint64_t cluster = read_uint(v.at("cluster"), place, field + ".cluster");
    if (cluster >= cfg.chip.clusters)
      place.fail(field + ".cluster", fmt::format("cluster {} does not exist; this config has {} cluster(s)", cluster,
                                                 cfg.chip.clusters));
    t.cluster = std::uint32_t(cluster);
  }
  check_fits(t.space, core, t.offset, span, cfg, place, field);
  return t;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

}  // namespace npusim
