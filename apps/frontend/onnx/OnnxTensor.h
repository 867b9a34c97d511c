#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace npusim {

// The elements of a constant tensor (initializer or Constant node), from its typed
// field or its raw little-endian bytes. Throws InputError naming `file` and the
// tensor for types other than float, double, int8, int32, int64 and for external data.
std::vector<double> tensor_values(const onnx::TensorProto& t, const std::string& file);
// The same into `values`, whose capacity is reused (large weights, read layer after layer).
void read_tensor_values(const onnx::TensorProto& t, const std::string& file, std::vector<double>& values);
std::vector<std::int64_t> tensor_integers(const onnx::TensorProto& t, const std::string& file);

}  // namespace npusim
