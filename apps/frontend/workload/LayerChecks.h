#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "apps/frontend/workload/Workload.h"

namespace npusim {

// The rules every workload reader applies once it has a layer's fields (JSON, CSV,
// ONNX): names, shapes resolved from the inputs, windows that fit, channels that
// divide. Each check fails with InputError naming the file, the layer and the field,
// in the words docs/workload-format.md uses, whichever reader found the layer.

// Where we are while reading, so every message names the file and the layer.
struct Place {
  const std::string& file;
  std::string where;  // "layers[3] (conv2)" or "line 7"
  [[noreturn]] void fail(const std::string& field, const std::string& reason) const;
};

// Every extent, count, stride and padding of a layer: more than any network needs.
constexpr std::uint32_t kMaxExtent = 1u << 24;

// The shapes of the tensors read so far, by name ("input" and every earlier layer).
using TensorShapes = std::map<std::string, MapShape>;

// An extent, count or stride: an integer from 1 to kMaxExtent (nothing: the file gave
// no integer at all; the message is the same).
std::uint32_t checked_extent(std::optional<std::int64_t> value, const char* field, const Place& place);
// Padding [top, bottom, left, right], each side from 0 to kMaxExtent.
std::array<std::uint32_t, 4> checked_padding(const std::array<std::int64_t, 4>& sides, const Place& place);
[[noreturn]] void fail_padding(const Place& place);
// Softmax and GELU: the input's fraction bits, 0 to 7 (`shown`: as the file wrote it).
std::uint32_t checked_frac_bits(std::optional<std::int64_t> bits, const std::string& shown, const Place& place);
// Every tensor a layer reads is 'input' or an earlier layer (`field`: input or inputs).
void check_inputs_known(const std::vector<std::string>& names, const TensorShapes& shapes, const char* field,
                        const Place& place);

// A layer name made of letters, digits, '_', '-' and '.' from any text (others become '_').
std::string sanitized_layer_name(std::string text);
// Fails unless `name` is a valid layer name that no earlier tensor has.
void check_layer_name(const std::string& name, const TensorShapes& shapes, const Place& place);

// Output extent of a window; fails when the kernel is larger than the padded input.
std::uint32_t window_out(std::uint32_t in, std::uint32_t lo, std::uint32_t hi, std::uint32_t k, std::uint32_t s,
                         const Place& place);

// Conv: the dilation's limit, depthwise grouping, and the dilated kernel's extents.
void check_dilation(const Layer& l, const Place& place);
void apply_groups(Layer& l, std::uint32_t groups, std::uint32_t co, const Place& place);
std::array<std::uint32_t, 2> dilated_kernel(const Layer& l, const Place& place);
// Conv: padding below the dilated kernel, then the output map of `co` channels.
void finish_conv(Layer& l, const std::array<std::uint32_t, 2>& kernel, std::uint32_t co, const Place& place);
// Pool: padding below the window, then the output map.
void finish_pool(Layer& l, const Place& place);

// heads must cut a tensor's channels into equal segments; returns heads.
std::uint32_t check_heads(std::uint32_t heads, const MapShape& t, const char* operand, const Place& place);
// Matmul: the KV cache holds B's rows; A's and B's shared dimension agree; the output.
void check_kv_cache(const Layer& l, const Place& place);
void check_matmul_operands(const Layer& l, const Place& place);
void finish_matmul(Layer& l, const Place& place);
// Softmax, layernorm, gelu and the activations: no fused relu; the output is the input's shape.
void check_row_op(const Layer& l, const Place& place);
void finish_row_op(Layer& l);
// Concat: inputs of one h x w map, channels one after the other.
void finish_concat(Layer& l, const TensorShapes& shapes, const Place& place);
// Add, relu, mul, add_constant and mask: the output is the input's shape (add: both
// inputs alike; mul: see below; add_constant and mask: no fused relu).
void finish_elementwise(Layer& l, const TensorShapes& shapes, const Place& place);
// Mul: inputs[1] is inputs[0]'s shape, or 1 x 1 x c: one gate per channel, the same for
// every position (squeeze-and-excitation); no fused relu.
void check_mul_operands(const Layer& l, const TensorShapes& shapes, const Place& place);
// Embedding: token ids (one channel per position) looked up in a vocab x n table: the
// output is [h, w, n].
void finish_embedding(Layer& l, std::uint32_t n, const Place& place);
// concat_tokens: `tokens` constant rows, then the input's h·w positions as rows (a ViT's
// class token before its patches): out = (tokens + h·w) x 1 x c.
void finish_concat_tokens(Layer& l, std::uint32_t tokens, const Place& place);
// gather_channels: output channel k is input channel ids[k] (each below the input's c).
void finish_gather_channels(Layer& l, std::vector<std::uint32_t> ids, const Place& place);
// Its token ids: batch x h x w of them, each a row of the table; drawn from `seed`
// (uniform over the table's rows) when the workload gives none.
void check_token_ids(Layer& l, std::uint32_t batch, std::uint64_t seed, const Place& place);
// Upsample: the output is out_h x out_w of the input's channels (larger, smaller or
// alike; any ratio); no fused relu.
void finish_upsample(Layer& l, std::uint32_t out_h, std::uint32_t out_w, const Place& place);
// A mask's fill: an int8 value (`shown`: as the file wrote it).
std::int32_t checked_fill(std::optional<std::int64_t> fill, const std::string& shown, const Place& place);
// A mul's default shift: the product of two int8 ranges back into one (127 x 127 >> 7).
constexpr std::uint32_t kMulShift = 7;

// The requantization shift of a weighted layer or matmul when none is given.
std::uint32_t default_layer_shift(const Layer& l);
// A given shift: 0 to 31 (`shown`: the value as the file wrote it).
std::uint32_t checked_shift(std::optional<std::int64_t> shift, const std::string& shown, const Place& place);
// A layer's or the workload's "split" (empty = the compiler chooses).
void check_split(const std::string& split, const Place& place);

}  // namespace npusim
