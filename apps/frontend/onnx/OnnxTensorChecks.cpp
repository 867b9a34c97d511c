#include "apps/frontend/onnx/OnnxTensorChecks.h"

#include <array>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/frontend/onnx/OnnxModel.h"
#include "sim/common/InputError.h"

namespace npusim {
namespace {

using Tensor = onnx::TensorProto;

// How ONNX stores an element type: bytes per element in raw_data, and the typed
// field (with its values per element) that holds the elements otherwise.
struct Storage {
  std::uint64_t width;  // 0: no raw form (strings)
  const char* field;
  std::uint64_t per_element;
};

std::optional<Storage> storage_of(int type) {
  switch (type) {
    case Tensor::FLOAT: return Storage{4, "float_data", 1};
    case Tensor::UINT8: case Tensor::INT8: case Tensor::BOOL: return Storage{1, "int32_data", 1};
    case Tensor::UINT16: case Tensor::INT16: case Tensor::FLOAT16: case Tensor::BFLOAT16:
      return Storage{2, "int32_data", 1};
    case Tensor::INT32: return Storage{4, "int32_data", 1};
    case Tensor::INT64: return Storage{8, "int64_data", 1};
    case Tensor::STRING: return Storage{0, "string_data", 1};
    case Tensor::DOUBLE: return Storage{8, "double_data", 1};
    case Tensor::UINT32: return Storage{4, "uint64_data", 1};
    case Tensor::UINT64: return Storage{8, "uint64_data", 1};
    case Tensor::COMPLEX64: return Storage{8, "float_data", 2};
    case Tensor::COMPLEX128: return Storage{16, "double_data", 2};
    default: return std::nullopt;  // UNDEFINED, or a number no ONNX version defines
  }
}

std::array<std::pair<const char*, std::uint64_t>, 6> typed_fields(const Tensor& t) {
  return {{{"float_data", t.float_data_size()}, {"int32_data", t.int32_data_size()},
           {"string_data", t.string_data_size()}, {"int64_data", t.int64_data_size()},
           {"double_data", t.double_data_size()}, {"uint64_data", t.uint64_data_size()}}};
}

std::string described(const Tensor& t) {
  const std::string type = Tensor::DataType_IsValid(t.data_type()) ? Tensor::DataType_Name(t.data_type())
                                                                   : std::to_string(t.data_type());
  if (t.dims_size() == 0) return fmt::format("a scalar tensor of type {}", type);
  return fmt::format("a tensor of type {} and shape {}", type, fmt::join(t.dims(), "x"));
}

std::uint64_t checked_element_count(const Tensor& t, const std::string& file, const std::string& place) {
  std::uint64_t n = 1;
  for (const std::int64_t d : t.dims()) {
    if (d < 0) throw InputError(file, place, fmt::format("{} has a negative dimension", described(t)));
    // 2^62 bytes bounds every byte count below; no ONNX file (at most 2 GiB) holds that.
    if (__builtin_mul_overflow(n, std::uint64_t(d), &n) || n > (std::uint64_t(1) << 58))
      throw InputError(file, place, fmt::format("{} has more elements than any ONNX file can hold", described(t)));
  }
  return n;
}

void check_raw_data(const Tensor& t, const Storage& s, std::uint64_t n, const std::string& file,
                    const std::string& place) {
  if (s.width == 0) throw InputError(file, place, fmt::format("{} cannot hold raw_data", described(t)));
  for (const auto& [field, count] : typed_fields(t))
    if (count > 0) throw InputError(file, place, fmt::format("{} holds data in both raw_data and {}", described(t), field));
  if (t.raw_data().size() != n * s.width)
    throw InputError(file, place, fmt::format("{} needs {} bytes of raw_data ({} x {} bytes), but it holds {}",
                                              described(t), n * s.width, n, s.width, t.raw_data().size()));
}

void check_typed_data(const Tensor& t, const Storage& s, std::uint64_t n, const std::string& file,
                      const std::string& place) {
  const std::uint64_t needed = n * s.per_element;
  for (const auto& [field, count] : typed_fields(t)) {
    if (field != std::string(s.field)) {
      if (count > 0)
        throw InputError(file, place, fmt::format("{} holds {} values in {}; its elements belong in {} or raw_data",
                                                  described(t), count, field, s.field));
    } else if (count != needed) {
      const std::uint64_t value_bytes = s.width / s.per_element;  // 0 for strings: no byte count
      const auto bytes = [&](std::uint64_t values) {
        return value_bytes == 0 ? std::string() : fmt::format(" ({} bytes)", values * value_bytes);
      };
      throw InputError(file, place, fmt::format("{} needs {} values in {}{}, but it holds {}{}", described(t), needed,
                                                field, bytes(needed), count, bytes(count)));
    }
  }
}

void check_graph(const onnx::GraphProto& g, const std::string& file, const std::string& within);

void check_node(const onnx::NodeProto& n, const std::string& file, const std::string& within) {
  for (const auto& a : n.attribute()) {
    const std::string place = fmt::format("{}{}, attribute '{}'", within, node_place(n), a.name());
    if (a.has_t()) check_tensor_data(a.t(), file, place);
    for (const auto& t : a.tensors()) check_tensor_data(t, file, place);
    if (a.has_sparse_tensor() || a.sparse_tensors_size() > 0)
      throw InputError(file, place, "sparse tensors are not supported; store the tensor dense");
    if (a.has_g()) check_graph(a.g(), file, place + ": ");
    for (const auto& g : a.graphs()) check_graph(g, file, place + ": ");
  }
}

void check_graph(const onnx::GraphProto& g, const std::string& file, const std::string& within) {
  for (const auto& t : g.initializer()) check_tensor_data(t, file, fmt::format("{}initializer '{}'", within, t.name()));
  for (const auto& s : g.sparse_initializer())
    throw InputError(file, fmt::format("{}sparse initializer '{}'", within, s.values().name()),
                     "sparse tensors are not supported; store the tensor dense");
  for (const auto& n : g.node()) check_node(n, file, within);
}

}  // namespace

void check_tensor_data(const Tensor& t, const std::string& file, const std::string& place) {
  if (t.data_location() == Tensor::EXTERNAL || t.external_data_size() > 0)
    throw InputError(file, place, "external data is not supported; export with the weights inside the model");
  const auto storage = storage_of(t.data_type());
  if (!storage) throw InputError(file, place, fmt::format("{} has no ONNX element type", described(t)));
  const std::uint64_t n = checked_element_count(t, file, place);
  if (t.has_raw_data())
    check_raw_data(t, *storage, n, file, place);
  else
    check_typed_data(t, *storage, n, file, place);
}

void check_tensor_data(const onnx::ModelProto& model, const std::string& file) {
  check_graph(model.graph(), file, "");
  for (const auto& f : model.functions())
    for (const auto& n : f.node()) check_node(n, file, fmt::format("function '{}': ", f.name()));
  for (const auto& training : model.training_info()) {
    check_graph(training.initialization(), file, "training initialization: ");
    check_graph(training.algorithm(), file, "training algorithm: ");
  }
}

std::uint64_t tensor_element_count(const Tensor& t) {
  std::uint64_t n = 1;
  for (const std::int64_t d : t.dims()) n *= std::uint64_t(d);
  return n;
}

}  // namespace npusim
