#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/frontend/workload/Workload.h"

namespace npusim {

// The product of extents read from a file: saturates at the int64 maximum instead of
// overflowing; -1 when one is negative.
std::int64_t saturating_product(const std::vector<std::int64_t>& extents);

// A LayerNormalization's learned per-channel scale and shift, carried on its output
// until a layer with weights folds them in (docs/workload-format.md, ONNX).
struct ChannelAffine {
  std::vector<double> scale, shift;
};

// How an ONNX value lies in a workload tensor. A tensor is stored image by image as
// positions (h·w) x channels, so its bytes are the array [batch][h·w][c]. The value is
// a view of that array, as numpy has them: its ONNX dims, each with a stride in
// elements, and an offset. Reshape and Transpose only change the view (when the bytes
// can stay where they are), so the heads reshapes of attention cost nothing.
struct OnnxValue {
  std::string tensor;  // "input" or a layer name
  MapShape map;        // the tensor's storage shape per image
  int layer = -1;      // index of the producing layer, -1 for the network input
  std::uint32_t batch = 1;
  std::vector<std::int64_t> dims, strides;
  std::int64_t offset = 0;
  int exponent = 0;  // one int8 step of the tensor stands for 2^exponent
  std::shared_ptr<const ChannelAffine> affine;  // not yet applied to the values (LayerNormalization)
  bool probabilities = false;                   // a softmax's output: each row sums to 1
  // A channel shuffle not yet done: logical channel k is the tensor's channel
  // channel_order[k] (the next Conv folds it into its weights, a Slice gathers its part).
  std::shared_ptr<const std::vector<std::uint32_t>> channel_order;

  std::int64_t positions() const { return saturating_product({map.h, map.w}); }
  std::int64_t elements() const { return saturating_product({batch, map.h, map.w, map.c}); }
};

// A tensor's natural views: [N, C, H, W] (what a Conv writes) and [N, d1, ..., C]
// with the positions in storage order (what a MatMul over the last axis writes).
OnnxValue nchw_value(std::string tensor, int layer, std::uint32_t batch, MapShape map);
OnnxValue rows_value(std::string tensor, int layer, std::uint32_t batch, MapShape map,
                     const std::vector<std::int64_t>& dims);

// The value is its tensor's [N, C, H, W] view (Conv and pool inputs).
bool is_nchw(const OnnxValue& v);
// The value reads its tensor in storage order with the last axis = the channels
// (inputs of MatMul with weights, LayerNormalization, pools over tokens).
bool is_rows(const OnnxValue& v);
// Every element of the tensor, each once (not a part made by Split or Gather).
bool is_whole(const OnnxValue& v);
// Two views that read their tensors element for element alike.
bool same_view(const OnnxValue& a, const OnnxValue& b);

// The view after a Reshape (to `to`, the inferred output dims) or a Transpose; empty
// when the reshape would have to move data.
std::optional<OnnxValue> reshaped(const OnnxValue& v, const std::vector<std::int64_t>& to);
OnnxValue transposed(const OnnxValue& v, const std::vector<std::int64_t>& perm);
// Part `index` of `parts` equal parts along `axis` (Split, Gather).
OnnxValue part_of(const OnnxValue& v, std::size_t axis, std::int64_t parts, std::int64_t index);

// A part whose elements are, at every position, one contiguous block of channels:
// the block and the view of a tensor holding only that block.
struct ChannelBlock {
  std::uint32_t first = 0, count = 0;
  std::vector<std::int64_t> strides;  // the part's strides in a tensor of `count` channels
};
std::optional<ChannelBlock> channel_block(const OnnxValue& v);

// How an operand of a MatMul of two activations, [..., rows, cols], lies in its tensor:
// rows = the tensor's positions and cols = a segment of its channels, or the two swapped
// (`transposed`, e.g. Kᵀ). A leading axis may cut the channels into `heads` equal
// segments (attention heads), another may run over the batch.
struct MatmulOperand {
  std::uint32_t heads = 1;
  bool transposed = false;
  int heads_axis = -1, batch_axis = -1;
};
std::optional<MatmulOperand> matmul_operand(const OnnxValue& v);

}  // namespace npusim
