#pragma once
#include <cstdint>
#include <string>

#include <onnx/onnx_pb.h>

namespace npusim {

// libonnx 1.12 copies a tensor's raw_data into a vector sized from the byte count
// without comparing it with the element type and dims (its ParseData, which the
// checker and shape inference call): a raw_data one byte longer than an int64
// tensor needs overflows the heap, one byte shorter is read past. So every tensor
// in the file -- initializers, Constant values, any tensor attribute, inside
// subgraphs, functions and training graphs too -- must hold exactly the data its
// type and dims call for before the library sees the model. External data and
// sparse tensors are refused. Throws InputError naming `file` and the tensor.
void check_tensor_data(const onnx::ModelProto& model, const std::string& file);

// One tensor, refused at `place` ("initializer 'w'", "node 'c' (Constant), attribute
// 'value'") unless its data matches its type and dims exactly.
void check_tensor_data(const onnx::TensorProto& t, const std::string& file, const std::string& place);

// The number of elements its dims call for (1 for a scalar); the tensor has passed
// check_tensor_data, so the dims are not negative and the product fits.
std::uint64_t tensor_element_count(const onnx::TensorProto& t);

}  // namespace npusim
