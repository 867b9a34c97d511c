#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/compiler/Workload.h"

namespace npusim {

// How an ONNX value lies in a workload tensor. Tensors are stored per image as
// h x w x c (positions, then channels); the value's logical ONNX order is either
// channels first ([n, c, h, w] after a Conv) or channels last ([n, positions, c]).
// When a map has one position or one channel the two orders are the same bytes.
struct OnnxValue {
  std::string tensor;           // "input" or a layer name
  MapShape map;                 // the tensor's storage shape
  bool channels_first = true;
  int layer = -1;               // index of the producing layer, -1 for the network input
};

// The storage-compatible reading of `dims` for a window layer (Conv, pools):
// [n, c, h, w] channels first. Empty when the value is not laid out that way.
std::optional<MapShape> as_map(const OnnxValue& v, const std::vector<std::int64_t>& dims);

// For ops that work on the last axis (Gemm, MatMul, Softmax, ...): the value must
// be channels last with the last axis = c. Empty otherwise.
bool last_axis_is_channels(const OnnxValue& v, const std::vector<std::int64_t>& dims);

// The value after a Reshape, Flatten, Squeeze or Unsqueeze (`to`: the inferred
// output dims) or a Transpose (`perm`), when the bytes stay where they are; empty when
// the op would move data.
std::optional<OnnxValue> reshaped(const OnnxValue& v, const std::vector<std::int64_t>& from,
                                  const std::vector<std::int64_t>& to);
std::optional<OnnxValue> transposed(const OnnxValue& v, const std::vector<std::int64_t>& from,
                                    const std::vector<std::int64_t>& perm);

}  // namespace npusim
