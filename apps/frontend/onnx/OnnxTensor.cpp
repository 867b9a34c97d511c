#include "apps/frontend/onnx/OnnxTensor.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "apps/frontend/onnx/OnnxTensorChecks.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

template <typename T>
void from_raw(const std::string& raw, std::uint64_t count, std::vector<double>& out) {
  out.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = double(v);
  }
}

template <typename Field>
void from_field(const Field& field, std::vector<double>& out) {
  out.assign(field.begin(), field.end());
}

}  // namespace

std::vector<double> tensor_values(const onnx::TensorProto& t, const std::string& file) {
  std::vector<double> values;
  read_tensor_values(t, file, values);
  return values;
}

void read_tensor_values(const onnx::TensorProto& t, const std::string& file, std::vector<double>& out) {
  out.clear();  // a reused buffer grows to the tensor exactly, not by doubling
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
      case onnx::TensorProto::FLOAT: return from_raw<float>(t.raw_data(), n, out);
      case onnx::TensorProto::DOUBLE: return from_raw<double>(t.raw_data(), n, out);
      case onnx::TensorProto::INT8: return from_raw<std::int8_t>(t.raw_data(), n, out);
      case onnx::TensorProto::INT32: return from_raw<std::int32_t>(t.raw_data(), n, out);
      case onnx::TensorProto::BOOL: return from_raw<std::uint8_t>(t.raw_data(), n, out);  // a mask's condition
      default: return from_raw<std::int64_t>(t.raw_data(), n, out);
    }
  }
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT: return from_field(t.float_data(), out);
    case onnx::TensorProto::DOUBLE: return from_field(t.double_data(), out);
    case onnx::TensorProto::INT64: return from_field(t.int64_data(), out);
    default: return from_field(t.int32_data(), out);  // int8, int32 and bool live here
  }
}

std::vector<std::int64_t> tensor_integers(const onnx::TensorProto& t, const std::string& file) {
  // An int64 tensor is taken as it is: through a double, INT64_MAX (a Slice's "to the end")
  // would round to 2^63, past every int64.
  if (t.data_type() == onnx::TensorProto::INT64) {
    check_tensor_data(t, file, fmt::format("tensor '{}'", t.name()));
    if (!t.has_raw_data()) return {t.int64_data().begin(), t.int64_data().end()};
    std::vector<std::int64_t> out(tensor_element_count(t));
    std::memcpy(out.data(), t.raw_data().data(), out.size() * sizeof(std::int64_t));
    return out;
  }
  std::vector<std::int64_t> out;
  for (double v : tensor_values(t, file)) {
    if (v != std::floor(v))
      throw InputError(file, fmt::format("tensor '{}'", t.name()), "must hold integers");
    // [-2^63, 2^63): a float tensor of 1e30 has no integer to take
    if (v < -9223372036854775808.0 || v >= 9223372036854775808.0)
      throw InputError(file, fmt::format("tensor '{}'", t.name()), fmt::format("holds {}, beyond a 64-bit integer", v));
    out.push_back(std::int64_t(v));
  }
  return out;
}

}  // namespace npusim
