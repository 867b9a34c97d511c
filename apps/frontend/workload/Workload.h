#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/tensor/ResizeGeometry.h"

namespace npusim {

// A network as `npusim compile` sees it (docs/workload-format.md). Feature maps are
// NHWC int8; every layer reads one or two earlier tensors (a concat two or more) and
// writes one new tensor.

enum class LayerKind { Conv, Depthwise, Fc, Pool, Add, Relu, Matmul, Softmax, LayerNorm, Gelu, Concat,
                       Sigmoid, HardSigmoid, HardSwish, Silu, Tanh, Mul, AddConstant, Mask,
                       Embedding, Upsample, ConcatTokens, GatherChannels };
const char* layer_kind_name(LayerKind k);

// A feature map of one image: h x w x c (the batch is the workload's).
struct MapShape {
  std::uint32_t h = 0, w = 0, c = 0;
  std::uint64_t elements() const { return std::uint64_t(h) * w * c; }
  bool operator==(const MapShape& o) const { return h == o.h && w == o.w && c == o.c; }
};

// A batched matmul of two activations (docs/workload-format.md, "matmul"). Every tensor
// is read as rows (h*w positions) x channels, and `heads` cuts the channels of both
// operands and of the output into equal contiguous segments: head g multiplies A's rows
// (m x k, A's segment g) by B's segment g, which is k x n, or n x k when transposed.
struct MatmulShape {
  std::uint32_t heads = 1, m = 0, k = 0, n = 0;
  std::uint32_t b_rows = 0;        // rows of B the producer layer wrote (per image)
  std::uint32_t cached_rows = 0;   // rows of B that precede them in the KV cache (decode)
};

struct Layer {
  std::string name;
  LayerKind kind = LayerKind::Conv;
  std::vector<std::string> inputs;  // tensor names: "input" or earlier layers
  MapShape in;                      // shape of inputs[0]
  MapShape in_b;                    // shape of inputs[1] (add, matmul)
  std::vector<std::uint32_t> concat_channels;  // concat: each input's channels, in `inputs` order
  MapShape out;
  // Window layers (conv, depthwise, pool); fc is a 1x1 conv over m positions.
  std::uint32_t kh = 1, kw = 1, sh = 1, sw = 1, dilation = 1;
  std::array<std::uint32_t, 4> pad{0, 0, 0, 0};  // top, bottom, left, right
  bool pool_max = true;
  bool relu = false;            // fused into the layer's requantization or add
  std::uint32_t shift = 0;      // requantization shift (conv, depthwise, fc, matmul, mul)
  // Zero fractions: seeded data gets exactly these (weights; the input map where it is
  // generated), and a chip's sparse cluster uses them to call the layer sparse.
  double weight_sparsity = 0;
  double activation_sparsity = 0;
  // Matmul: heads, B stored [n, k] per head (QK^T) instead of [k, n] (attention x V),
  // and the KV-cache rows B stands for (0 = B is the producer's tensor alone).
  // Conv: ci and co in `groups` equal groups, each group's outputs reading only its inputs
  // (ResNeXt; 1 < groups < ci). Depthwise (groups = ci = co) is a kind of its own.
  std::uint32_t groups = 1;
  std::uint32_t heads = 1;          // also softmax: each head's channel segment is normalized alone
  bool transpose_b = false;
  std::uint32_t kv_cache_tokens = 0;
  // Softmax, GELU and the activations read int8 q as q / 2^frac_bits (fixed point); see "Numbers".
  std::uint32_t frac_bits = 4;
  std::int32_t fill = -128;     // mask: the value of the positions its constant does not keep
  Resampling resample;          // upsample: nearest or bilinear, where output positions read (out: the size)
  // Embedding and concat_tokens: rows of its table (vocab x out.c, the constant); an
  // embedding also has the token of every input row, image by image (compile-time data: the gather's DMA addresses).
  std::uint32_t vocab = 0;
  std::shared_ptr<const std::vector<std::uint32_t>> token_ids;
  // gather_channels: output channel k is input channel channel_ids[k] (a channel shuffle).
  std::shared_ptr<const std::vector<std::uint32_t>> channel_ids;
  std::string split;            // conv/fc: "data", "model-co", ... to force one; empty = the workload's
  std::string engine;           // conv/fc: "matrix", "shader" or "sparse" to force one; empty = the compiler chooses
  std::string weights_file;     // optional .npy, resolved against the workload's directory
  // Weights carried by the workload itself (an ONNX model's initializers, quantized),
  // in the order and shape a weights_file would have; null = none.
  std::shared_ptr<const std::vector<std::int8_t>> weight_values;
  // conv, depthwise, fc: one int32 per output channel, added to the accumulator before the
  // requantization shift (in steps of 2^(input + weight scale exponents)); null = none.
  std::shared_ptr<const std::vector<std::int32_t>> bias_values;
  // Layers imported from ONNX: the graph value the layer's tensor holds, and the scale of
  // its int8 steps (one step = 2^scale_exponent), for comparing with the float graph.
  struct OnnxOrigin {
    std::string value;
    int scale_exponent = 0;
    bool before_affine = false;  // a LayerNormalization's value before its scale and bias (the next layer applies them)
    std::string normalized;      // a layernorm's: the value it normalizes
  };
  std::optional<OnnxOrigin> onnx;
  std::uint32_t line = 0;       // CSV line, for messages (0 for JSON)

  bool has_weights() const { return kind == LayerKind::Conv || kind == LayerKind::Depthwise || kind == LayerKind::Fc; }
  // Vector-unit ops that transform each position's channels (softmax, layernorm, gelu).
  bool is_row_op() const {
    return kind == LayerKind::Softmax || kind == LayerKind::LayerNorm || kind == LayerKind::Gelu || is_activation();
  }
  // Element-wise activations (sigmoid, hardsigmoid, hardswish, silu, tanh), read with frac_bits.
  bool is_activation() const { return kind >= LayerKind::Sigmoid && kind <= LayerKind::Tanh; }
  // Layers with a constant tensor of their input's shape per image, stored in DRAM like
  // weights (weight_values or weights_file) and loaded band by band: add_constant, mask;
  // an embedding's table, whose rows the load DMA gathers; concat_tokens' leading rows.
  bool has_constant() const {
    return kind == LayerKind::AddConstant || kind == LayerKind::Mask || kind == LayerKind::Embedding ||
           kind == LayerKind::ConcatTokens;
  }
  // A constant of `vocab` rows of out.c channels (embedding, concat_tokens).
  bool has_table() const { return kind == LayerKind::Embedding || kind == LayerKind::ConcatTokens; }
  // A mul whose second input is one gate per channel (1 x 1 x c), the same for every position.
  bool gated() const { return kind == LayerKind::Mul && !(in_b == in); }
  // The matmul's dimensions, from `in`, `in_b`, heads, transpose_b and kv_cache_tokens.
  MatmulShape matmul() const;
  // The matmul's second operand as [rows, channels] per image: the whole cache when there is one.
  std::uint64_t b_elements() const;
  // Elements of the weight tensor: [co kh kw ci] (conv, fc) or [kh kw c] (depthwise); the
  // constant's [h w c] of add_constant and mask.
  std::uint64_t weight_elements() const;
  // Multiply-accumulates of one image (formula (1) of seed000, per group for depthwise;
  // heads x m x n x k for matmul; 0 for the vector-unit ops).
  std::uint64_t macs() const;
};

struct Workload {
  std::string name;
  std::string file;      // where it came from, for messages
  std::uint32_t batch = 1;
  MapShape input;
  std::string input_file;     // optional .npy for the network input
  std::uint64_t seed = 1;     // random data when no .npy is given
  std::string split;          // "auto", "data", ...: how layers are split across cores; empty = auto
  std::vector<Layer> layers;
  // SCALE-Sim tables: every layer reads its own fresh DRAM tensor instead of a producer.
  bool independent_layers = false;
  // What an import approximated (ONNX: biases left out, ReLU6 as ReLU), for the user.
  std::vector<std::string> notes;
};

// The default requantization shift for a dot product of `terms` int8 products: keeps
// random int8 data roughly within int8 range (7 + ceil(log2(terms) / 2)).
std::uint32_t default_requant_shift(std::uint64_t terms);

}  // namespace npusim
