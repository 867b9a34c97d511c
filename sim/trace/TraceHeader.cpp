#include "sim/trace/TraceHeader.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/common/JsonInteger.h"
#include "sim/tensor/Npy.h"

namespace npusim {

void DataBinding::set_shape(std::vector<std::uint64_t> shape) {
  data_shape = std::move(shape);
  region.shape = dilated() ? dilated_kernel_shape(data_shape, dilation) : data_shape;
}

namespace {

const std::string kHeaderExample = R"({"format":"npusim-trace","version":1})";

void check_format_and_version(const nlohmann::json& line, const TracePlace& place) {
  if (!line.contains("format"))
    place.fail(fmt::format("missing header: the first line must be a header such as {}", kHeaderExample));
  std::string format = read_string(line.at("format"), place, "format");
  if (format != kTraceFormat)
    place.fail("format", fmt::format("expected \"{}\", got \"{}\"", kTraceFormat, format));
  std::uint64_t version = read_uint(required_field(line, "version", place, "version"), place, "version");
  if (version != kTraceVersion)
    place.fail("version", fmt::format("unsupported trace version {} (this build reads version {})", version,
                                      kTraceVersion));
}

// Names become .npy file stems, so keep them to characters safe in a path.
std::string read_binding_name(const nlohmann::json& v, const TracePlace& place, const std::string& field) {
  std::string name = read_string(v, place, field);
  bool safe = !name.empty() && name[0] != '.' && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
  if (!safe) place.fail(field, fmt::format("'{}' is not a valid name; use letters, digits, '_', '-' and '.'", name));
  return name;
}

// "chunks": [[offset, bytes], ...]: the binding's bytes laid out piece by piece in DRAM;
// [[offset, bytes, cluster], ...] for a cluster binding: each piece in that cluster's cache.
void read_chunks(const nlohmann::json& v, DataBinding& b, const TracePlace& place, const std::string& field) {
  const bool cache = b.region.space == AddressSpace::Cluster;
  if (b.region.space != AddressSpace::Dram && !cache)
    place.fail(field, "only a dram or cluster binding may be laid out in chunks");
  const std::size_t fields = cache ? 3 : 2;
  const char* form = cache ? "[offset, bytes, cluster]" : "[offset, bytes]";
  if (!v.is_array() || v.empty()) place.fail(field, fmt::format("must be a non-empty list of {} entries", form));
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto& c = v[i];
    std::optional<std::uint64_t> offset, bytes, cluster = cache ? std::nullopt : std::optional<std::uint64_t>(0);
    if (c.is_array() && c.size() == fields) {
      offset = json_integer(c[0], 0);
      bytes = json_integer(c[1], 1);
      if (cache) cluster = json_integer(c[2], 0);
    }
    if (!offset || !bytes || !cluster)
      place.fail(fmt::format("{}[{}]", field, i), fmt::format("must be {} with bytes >= 1", form));
    b.chunks.push_back({*offset, *bytes, std::uint32_t(*cluster)});
  }
  b.region.offset = b.chunks.front().offset;
}

// Chunks cover the tensor as memory holds it (a dilated kernel with its zero taps)
// exactly, each inside DRAM (or inside its cluster's cache).
void check_chunks(const DataBinding& b, const HardwareConfig& cfg, const TracePlace& place, const std::string& field) {
  if (b.chunks.empty()) return;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < b.chunks.size(); ++i) {
    const std::string at = fmt::format("{}.chunks[{}]", field, i);
    if (b.region.space == AddressSpace::Cluster && b.chunks[i].cluster >= cfg.chip.clusters)
      place.fail(at, fmt::format("cluster {} does not exist: the chip has {}", b.chunks[i].cluster, cfg.chip.clusters));
    check_fits(b.region.space, b.chunks[i].cluster * cfg.chip.cores_per_cluster, b.chunks[i].offset, b.chunks[i].bytes,
               cfg, place, at);
    total += b.chunks[i].bytes;
  }
  if (total != b.region.bytes())
    place.fail(field + ".chunks", fmt::format("chunks hold {} bytes but the tensor has {}", total, b.region.bytes()));
}

// The fields inputs and outputs share: name, space, core, offset.
DataBinding read_location(const nlohmann::json& v, const HardwareConfig& cfg, const TracePlace& place,
                          const std::string& field) {
  DataBinding b;
  b.name = read_binding_name(required_field(v, "name", place, field + ".name"), place, field + ".name");
  b.region.space = read_space(required_field(v, "space", place, field + ".space"), place, field + ".space");
  b.region.offset = read_uint(required_field(v, "offset", place, field + ".offset"), place, field + ".offset");
  if (v.contains("core")) b.core = read_core(v.at("core"), cfg, place, field + ".core");
  if (v.contains("dilation")) {
    const auto& d = v.at("dilation");
    std::optional<std::uint32_t> dh, dw;
    if (d.is_array() && d.size() == 2) {
      dh = json_integer_as<std::uint32_t>(d[0], 1, 1024);
      dw = json_integer_as<std::uint32_t>(d[1], 1, 1024);
    }
    if (!dh || !dw) place.fail(field + ".dilation", "must be a list of two integers [dh, dw], each from 1 to 1024");
    b.dilation = {*dh, *dw};
  }
  if (v.contains("chunks")) read_chunks(v.at("chunks"), b, place, field + ".chunks");
  return b;
}

// A dilated binding is a kernel: [..., kh, kw, c].
void check_dilation(const DataBinding& b, const TracePlace& place, const std::string& field) {
  if (b.dilated() && b.data_shape.size() < 3)
    place.fail(field + ".dilation", fmt::format("applies to kernels of shape [..., kh, kw, c]; this binding has shape {}",
                                                shape_text(b.data_shape)));
  checked_bytes(b.data_shape, b.region.dtype, place, field + ".shape");
  if (!b.dilated()) return;
  const std::size_t r = b.data_shape.size();
  for (std::size_t i = 0; i < 2; ++i) {
    std::uint64_t dim = 0;
    if (__builtin_mul_overflow(b.data_shape[r - 3 + i] - 1, std::uint64_t(b.dilation[i]), &dim) ||
        __builtin_add_overflow(dim, 1, &dim))
      place.fail(field + ".dilation", fmt::format("dilating kernel dimension {} by {} is too large to address",
                                                  b.data_shape[r - 3 + i], b.dilation[i]));
  }
}

void read_shape_and_dtype(const nlohmann::json& v, DataBinding& b, const TracePlace& place,
                          const std::string& field) {
  b.set_shape(read_shape(required_field(v, "shape", place, field + ".shape"), place, field + ".shape"));
  b.region.dtype = read_dtype(required_field(v, "dtype", place, field + ".dtype"), place, field + ".dtype");
}

void read_npy_source(const nlohmann::json& v, DataBinding& b, const TracePlace& place, const std::string& field,
                     const std::string& trace_dir) {
  for (const char* key : {"shape", "dtype", "random_seed", "zeros"})
    if (v.contains(key))
      place.fail(fmt::format("{}.{}", field, key), "not allowed with 'file': shape and dtype come from the .npy file");
  b.file = read_string(v.at("file"), place, field + ".file");
  b.file_path = (std::filesystem::path(trace_dir) / b.file).string();
  NpyHeader npy;
  try {
    npy = read_npy_header(b.file_path);
  } catch (const InputError& e) {
    place.fail(field + ".file", fmt::format("cannot use '{}': {}", b.file, e.reason()));
  }
  bool empty = std::find(npy.shape.begin(), npy.shape.end(), 0) != npy.shape.end();
  if (empty) place.fail(field + ".file", fmt::format("{} holds an empty array (a dimension is 0)", b.file));
  b.set_shape(npy.shape.empty() ? std::vector<std::uint64_t>{1} : npy.shape);
  b.region.dtype = npy.dtype;
}

// "compressed": {"indices": offset}: an int8 DRAM input stored in the flat compressed
// format; its index list (4 bytes per element) must fit DRAM too.
void read_compressed(const nlohmann::json& v, DataBinding& b, const HardwareConfig& cfg, const TracePlace& place,
                     const std::string& field) {
  if (!v.is_object() || !v.contains("indices"))
    place.fail(field, R"(must be {"indices": offset}: where the int32 index list of the non-zeros starts)");
  reject_unknown_keys(v, {"indices"}, place, field);
  if (b.region.space != AddressSpace::Dram || !b.chunks.empty())
    place.fail(field, "only a dram binding in one piece may be stored compressed");
  if (b.region.dtype != DType::Int8) place.fail(field, "compressed data is int8 only");
  b.compressed_indices = read_uint(v.at("indices"), place, field + ".indices");
  check_fits(AddressSpace::Dram, b.core, *b.compressed_indices, 4 * b.region.elements(), cfg, place,
             field + ".indices");
}

DataBinding read_input(const nlohmann::json& v, const HardwareConfig& cfg, const TracePlace& place,
                       const std::string& field, const std::string& trace_dir) {
  if (!v.is_object()) place.fail(field, "an input binding must be an object");
  reject_unknown_keys(v, {"name", "space", "core", "offset", "file", "shape", "dtype", "random_seed", "zeros",
                          "dilation", "chunks", "compressed"},
                      place, field);
  DataBinding b = read_location(v, cfg, place, field);
  if (v.contains("file")) {
    read_npy_source(v, b, place, field, trace_dir);
  } else if (v.contains("random_seed")) {
    read_shape_and_dtype(v, b, place, field);
    b.random_seed = read_uint(v.at("random_seed"), place, field + ".random_seed");
    if (v.contains("zeros")) {
      const nlohmann::json& z = v.at("zeros");
      if (!z.is_number() || z.get<double>() < 0 || z.get<double>() > 1)
        place.fail(field + ".zeros", "must be a zero fraction from 0 to 1");
      if (b.region.dtype != DType::Int8) place.fail(field + ".zeros", "sparse random data is int8 only");
      b.zero_fraction = z.get<double>();
    }
  } else {
    place.fail(field, "an input needs either 'file' (a .npy) or 'shape', 'dtype' and 'random_seed'");
  }
  check_dilation(b, place, field);
  if (v.contains("compressed")) read_compressed(v.at("compressed"), b, cfg, place, field + ".compressed");
  return b;
}

DataBinding read_output(const nlohmann::json& v, const HardwareConfig& cfg, const TracePlace& place,
                        const std::string& field) {
  if (!v.is_object()) place.fail(field, "an output binding must be an object");
  reject_unknown_keys(v, {"name", "space", "core", "offset", "shape", "dtype", "dilation", "chunks"}, place, field);
  DataBinding b = read_location(v, cfg, place, field);
  read_shape_and_dtype(v, b, place, field);
  check_dilation(b, place, field);
  return b;
}

template <typename ReadOne>
std::vector<DataBinding> read_bindings(const nlohmann::json& line, const char* key, const HardwareConfig& cfg,
                                       const TracePlace& place, ReadOne read_one) {
  std::vector<DataBinding> bindings;
  if (!line.contains(key)) return bindings;
  const auto& list = line.at(key);
  if (!list.is_array()) place.fail(key, "must be a list of bindings");
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string field = fmt::format("{}[{}]", key, i);
    DataBinding b = read_one(list[i], field);
    for (const auto& earlier : bindings)
      if (earlier.name == b.name) place.fail(field + ".name", fmt::format("name '{}' is used twice", b.name));
    const std::uint64_t bytes = checked_bytes(b.region.shape, b.region.dtype, place, field + ".shape");
    if (b.chunks.empty()) check_fits(b.region.space, b.core, b.region.offset, bytes, cfg, place, field);
    check_chunks(b, cfg, place, field);
    bindings.push_back(std::move(b));
  }
  return bindings;
}

}  // namespace

TraceHeader parse_trace_header(const nlohmann::json& line, const HardwareConfig& cfg, const TracePlace& place,
                               const std::string& trace_dir) {
  if (!line.is_object()) place.fail(fmt::format("missing header: the first line must be a header such as {}", kHeaderExample));
  check_format_and_version(line, place);
  reject_unknown_keys(line, {"format", "version", "compiled_by", "inputs", "outputs"}, place, "");
  if (line.contains("compiled_by")) read_string(line.at("compiled_by"), place, "compiled_by");
  TraceHeader h;
  h.version = kTraceVersion;
  h.inputs = read_bindings(line, "inputs", cfg, place, [&](const nlohmann::json& v, const std::string& field) {
    return read_input(v, cfg, place, field, trace_dir);
  });
  h.outputs = read_bindings(line, "outputs", cfg, place, [&](const nlohmann::json& v, const std::string& field) {
    return read_output(v, cfg, place, field);
  });
  return h;
}

}  // namespace npusim
