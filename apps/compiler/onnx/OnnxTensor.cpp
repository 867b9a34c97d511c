#include "apps/compiler/onnx/OnnxTensor.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

namespace {

template <typename T>
std::vector<double> from_raw(const std::string& raw, std::uint64_t count) {
  std::vector<double> out(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = double(v);
  }
  return out;
}

std::uint64_t element_count(const onnx::TensorProto& t) {
  std::uint64_t n = 1;
  for (auto d : t.dims()) n *= std::uint64_t(d);
  return n;
}

}  // namespace

std::vector<double> tensor_values(const onnx::TensorProto& t, const std::string& file) {
  const std::string place = fmt::format("tensor '{}'", t.name());
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    throw InputError(file, place, "external data is not supported; export with the weights inside the model");
  const std::uint64_t n = element_count(t);
  std::size_t width = 0;
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT: width = 4; break;
    case onnx::TensorProto::DOUBLE: width = 8; break;
    case onnx::TensorProto::INT8: width = 1; break;
    case onnx::TensorProto::INT32: width = 4; break;
    case onnx::TensorProto::INT64: width = 8; break;
    default:
      throw InputError(file, place, fmt::format("element type {} is not supported (float, double, int8, int32, int64)",
                                                onnx::TensorProto::DataType_Name(t.data_type())));
  }
  if (t.has_raw_data()) {
    if (t.raw_data().size() != n * width)
      throw InputError(file, place, fmt::format("holds {} bytes of data, its shape needs {}", t.raw_data().size(),
                                                n * width));
    switch (t.data_type()) {
      case onnx::TensorProto::FLOAT: return from_raw<float>(t.raw_data(), n);
      case onnx::TensorProto::DOUBLE: return from_raw<double>(t.raw_data(), n);
      case onnx::TensorProto::INT8: return from_raw<std::int8_t>(t.raw_data(), n);
      case onnx::TensorProto::INT32: return from_raw<std::int32_t>(t.raw_data(), n);
      default: return from_raw<std::int64_t>(t.raw_data(), n);
    }
  }
  std::vector<double> out;
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT: out.assign(t.float_data().begin(), t.float_data().end()); break;
    case onnx::TensorProto::DOUBLE: out.assign(t.double_data().begin(), t.double_data().end()); break;
    case onnx::TensorProto::INT64: out.assign(t.int64_data().begin(), t.int64_data().end()); break;
    default: out.assign(t.int32_data().begin(), t.int32_data().end()); break;  // int8 and int32 live here
  }
  if (out.size() != n)
    throw InputError(file, place, fmt::format("holds {} elements, its shape needs {}", out.size(), n));
  return out;
}

std::vector<std::int64_t> tensor_integers(const onnx::TensorProto& t, const std::string& file) {
  std::vector<std::int64_t> out;
  for (double v : tensor_values(t, file)) {
    if (v != std::floor(v))
      throw InputError(file, fmt::format("tensor '{}'", t.name()), "must hold integers");
    out.push_back(std::int64_t(v));
  }
  return out;
}

}  // namespace npusim
