#include "apps/frontend/onnx/OnnxTensor.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxTensorChecks.h"
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

}  // namespace

std::vector<double> tensor_values(const onnx::TensorProto& t, const std::string& file) {
  const std::string place = fmt::format("tensor '{}'", t.name());
  check_tensor_data(t, file, place);  // the model's were checked on load; folded ones are checked here
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT: case onnx::TensorProto::DOUBLE: case onnx::TensorProto::INT8:
    case onnx::TensorProto::INT32: case onnx::TensorProto::INT64: case onnx::TensorProto::BOOL: break;
    default:
      throw InputError(file, place, fmt::format("element type {} is not supported (float, double, int8, int32, int64, "
                                                "bool)",
                                                onnx::TensorProto::DataType_Name(t.data_type())));
  }
  const std::uint64_t n = tensor_element_count(t);
  if (t.has_raw_data()) {
    switch (t.data_type()) {
      case onnx::TensorProto::FLOAT: return from_raw<float>(t.raw_data(), n);
      case onnx::TensorProto::DOUBLE: return from_raw<double>(t.raw_data(), n);
      case onnx::TensorProto::INT8: return from_raw<std::int8_t>(t.raw_data(), n);
      case onnx::TensorProto::INT32: return from_raw<std::int32_t>(t.raw_data(), n);
      case onnx::TensorProto::BOOL: return from_raw<std::uint8_t>(t.raw_data(), n);  // a mask's condition
      default: return from_raw<std::int64_t>(t.raw_data(), n);
    }
  }
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT: return {t.float_data().begin(), t.float_data().end()};
    case onnx::TensorProto::DOUBLE: return {t.double_data().begin(), t.double_data().end()};
    case onnx::TensorProto::INT64: return {t.int64_data().begin(), t.int64_data().end()};
    default: return {t.int32_data().begin(), t.int32_data().end()};  // int8, int32 and bool live here
  }
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
