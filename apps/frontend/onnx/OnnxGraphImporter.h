#pragma once
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "apps/frontend/onnx/OnnxImporter.h"
#include "apps/frontend/onnx/OnnxLayout.h"

namespace npusim {

constexpr int kMaxShift = 31;  // the requantization shift's range (docs/workload-format.md)

// v in int8 steps of 2^exponent, rounded half away from zero and saturated.
std::int8_t quantized(double v, int exponent);

// A layer of that kind, its fields yet to be set.
OnnxLayer onnx_layer(LayerKind kind);
// A pool over the whole map (GlobalAveragePool, GlobalMaxPool, a mean over all positions).
OnnxLayer global_pool_layer(bool max);

// Walks the graph's nodes in order (ONNX keeps them topologically sorted), turning
// each into a workload layer, a fusion into the layer before it (BatchNormalization
// into a Conv, Relu into a Conv, Gemm or Add) or a new view of an existing tensor
// (layout-only Reshape, Transpose, ...). Internal to import_onnx_graph.
class OnnxGraphImporter {
 public:
  OnnxGraphImporter(const OnnxModel& model, bool functional, const std::map<std::string, int>& calibrated);
  OnnxImport run();

  using Node = onnx::NodeProto;
  using Handler = void (OnnxGraphImporter::*)(const Node&);
  static const std::map<std::string, Handler>& handlers();

 private:
  // Op handlers (OnnxOpHandlers.cpp).
  void conv(const Node& n);
  void gemm(const Node& n);
  void matmul(const Node& n);
  void add(const Node& n);
  void concat(const Node& n);
  void relu(const Node& n);
  void max_pool(const Node& n);
  void average_pool(const Node& n);
  void global_pool(const Node& n);
  void reshape(const Node& n);
  void transpose(const Node& n);
  void identity(const Node& n);
  // Transformer ops (OnnxTransformerHandlers.cpp).
  void attention_matmul(const Node& n);
  void softmax(const Node& n);
  void layer_norm(const Node& n);
  void divide(const Node& n);    // the GELU pattern's first node, or a scale by a constant
  void multiply(const Node& n);  // a scale by a constant
  void split(const Node& n);
  void gather(const Node& n);
  void reduce_mean(const Node& n);
  void bias_add(const Node& n, int constant_input);
  QuantizedWeights* weighted_producer(const Node& n, int input);
  void refused(const Node& n);   // ops handled only in patterns or on constants
  // Activations and element-wise products (OnnxActivationHandlers.cpp).
  void activation_op(const Node& n);  // Sigmoid, HardSigmoid, HardSwish, Tanh; x * Sigmoid(x) as SiLU
  void emit_activation(const Node& n, LayerKind kind, const OnnxValue& in);
  void multiply_activations(const Node& n);
  void layer_scale(const Node& n, int constant_input);  // a Mul by one constant per channel
  void power(const Node& n);  // Pow(x, 3) opening GELU's tanh form
  bool gelu_tanh(const Node& n);  // x * x or x^3 opening GELU's tanh form: emits gelu
  const Node* gelu_tanh_pattern(const std::string& x, std::vector<const Node*>& chain) const;
  std::vector<const Node*> chain_from(const std::string& x) const;
  // Constant tensors the vector unit reads (OnnxConstantTensorHandlers.cpp).
  void add_constant(const Node& n, int constant_input);  // not one value per channel
  void where_mask(const Node& n);
  void emit_mask(const Node& n, const OnnxValue& in, const std::vector<bool>& keep, int fill);
  // Token ids as the graph input and their embedding (OnnxConstantTensorHandlers.cpp).
  bool token_input() const;  // an integer graph input: token ids for a Gather
  OnnxValue token_ids_value(const std::vector<std::int64_t>& dims) const;
  void embedding(const Node& n);
  bool first_token(const Node& n);  // Gather of token 0 (BERT's pooler): a strided 1x1 pool
  // A per-channel constant is a bias to leave to the layer that made `in` (conv, fc,
  // matmul) unless it is non-zero and no such layer made it.
  bool folds_bias(const OnnxValue& in, const std::vector<double>& bias) const;
  std::vector<double> per_image_constant(const Node& n, const OnnxValue& in, const std::vector<double>& values,
                                         const std::vector<std::int64_t>& cdims) const;
  // Tokens joined along the token axis (OnnxTokenHandlers.cpp).
  bool token_concat(const Node& n);  // constant rows (a class token) before [N, S, C] tokens
  std::vector<double> constant_token_rows(const Node& n, int input, std::int64_t channels) const;
  // Channel permutations (OnnxPermutationHandlers.cpp).
  bool channel_shuffle(const Node& n);  // the last Reshape of Reshape, Transpose, Reshape over channels
  std::optional<std::vector<std::uint32_t>> shuffle_order(const OnnxValue& in, const std::vector<std::int64_t>& to) const;
  bool keeps_shuffle(const std::string& value) const;  // only Convs and Slices of channels read it
  void gather_part(const Node& n, const OnnxValue& in, std::int64_t first, std::int64_t end);
  void unshuffle_weights(const Node& n, const OnnxValue& in, std::vector<double>& weights) const;
  // Structure (OnnxStructureHandlers.cpp): padding, pooling, reshapes, grouped convs.
  void pad(const Node& n);              // folded into the Conv or AveragePool that reads it
  std::vector<std::int64_t> pads_of(const Node& n) const;
  void batch_norm_alone(const Node& n);  // a BatchNormalization no conv precedes
  // x · scale + shift per channel, as a 1x1 depthwise conv (a layer scale, a lone BatchNormalization).
  void emit_channel_scale(const Node& n, const OnnxValue& in, const OnnxValue& out, std::vector<double> scale,
                          std::vector<double> shift);
  void slice(const Node& n);  // of a projection's output channels (a packed q, k, v): one layer per block
  // Adds the padding of a Pad folded into this window node; true when there was one.
  bool fold_pad(const Node& n, OnnxLayer& layer) const;
  // ceil_mode = 1: the extra bottom and right padding that gives the output `od`
  // (refused when the padding counts in an average).
  void ceil_mode_padding(const Node& n, OnnxLayer& layer, const MapShape& in, const std::vector<std::int64_t>& od,
                         bool padding_counted);
  // An average whose divisor counts the padding (count_include_pad, a folded Pad): a
  // depthwise conv with every weight 1 / (kh·kw).
  void padded_average(const Node& n, OnnxLayer pool, const OnnxValue& in);
  // A Flatten of an [N, C, H, W] map that only Gemms read: true when recorded (the Gemm
  // becomes a conv over the whole map, its weights permuted to npusim's order).
  bool flatten_for_gemm(const Node& n);
  void flattened_gemm(const Node& n, std::vector<double> weights, std::vector<double> bias, std::uint32_t co);
  // The BatchNormalization that alone reads a Conv's output, folded into its weights and bias.
  const Node* fold_next_batch_norm(const Node& n, std::vector<double>& weights, std::vector<double>& bias,
                                   std::uint32_t co);

  // Upsampling (OnnxResizeHandlers.cpp).
  void resize(const Node& n);
  Resampling resampling_of(const Node& n) const;
  std::pair<std::uint32_t, std::uint32_t> resize_target(const Node& n, const OnnxValue& in) const;

  // Shared by the handlers (OnnxGraphImporter.cpp).
  const OnnxValue& activation(const Node& n, int input) const;
  const std::vector<std::int64_t>& dims(const Node& n, const std::string& value) const;
  std::vector<double> constant_values(const Node& n, int input) const;
  // A weight initializer's values, read into the buffer the previous weighted layer left
  // (recycled_weights_): a fresh vector per layer cost ResNet-50 200 MB of page faults.
  std::vector<double> weight_values(const Node& n, int input);
  void read_constant(const Node& n, int input, std::vector<double>& values) const;
  bool has_input(const Node& n, int input) const { return input < n.input_size() && !n.input(input).empty(); }
  const Node* sole_consumer(const std::string& value) const;
  std::string layer_name(const Node& n);
  // Appends a layer that reads `in` and writes node output 0 (or the output of what
  // got fused into it); returns its index.
  // `out` gives the output's shape and order.
  int emit(const Node& n, OnnxLayer layer, const OnnxValue& in, OnnxValue out);
  // Conv and fc: folds a following BatchNormalization (conv only), quantizes the
  // weights, records the bias, and fuses a following Relu. The shift undoes the
  // weights' scale, so every activation keeps the network input's scale.
  void require_finite(const Node& n, const std::vector<double>& values, const char* what) const;
  void emit_weighted(const Node& n, OnnxLayer layer, const OnnxValue& in, OnnxValue out,
                     std::vector<double> weights, std::vector<double> bias, bool can_fold_bn,
                     std::uint32_t co, std::uint32_t ci, std::uint32_t kh, std::uint32_t kw,
                     bool depthwise);
  bool relu_bound(const Node& n) const;  // Relu, or Clip with min 0 and max 6 or none
  std::string fuse_relu(int layer, std::string output);
  void alias(const Node& n, OnnxValue v);
  // The exponent a weighted layer's output takes: its input's, or when the result is
  // added to a value that already exists (a residual), that value's.
  int output_exponent(const std::string& value, int input_exponent) const;
  // The calibrated exponent of a weighted layer's output when there is one, never finer
  // than its accumulator's step (`accumulator`: the shift cannot be negative).
  int weighted_output_exponent(const std::string& value, int input_exponent, int accumulator) const;
  // Where a value's scale is not a power of two or leaves a layer's range: an error in
  // functional mode, a note (values are not computed) in timing mode.
  int scale_within(const Node& n, double exponent, int low, int high, const char* what);
  // The Split/Gather of a weighted layer's output channels: that layer becomes one per
  // part (OnnxTransformerHandlers.cpp).
  OnnxValue channel_part(const Node& n, const OnnxValue& part, int index);
  // Op chains imported as one layer (OnnxPatterns.cpp).
  struct LayerNormChain {
    std::vector<const Node*> nodes;  // after the first ReduceMean
    const Node* last = nullptr;      // writes the result
    std::vector<double> scale, shift;  // empty when the chain has none
  };
  std::vector<const Node*> readers(const std::string& value) const;
  bool has_constant(const Node& n, double want) const;
  const Node* gelu_pattern(const Node& div) const;  // the chain's last node, or nullptr
  void emit_gelu(const Node& n, const Node& gelu, const OnnxValue& in);
  std::optional<LayerNormChain> layer_norm_pattern(const Node& mean) const;
  // The layernorm layer of a LayerNormalization or its spelled-out chain.
  void emit_layer_norm(const Node& first, const std::string& output, std::vector<double> scale,
                       std::vector<double> shift);
  // A LayerNormalization's scale or bias reaches a node that cannot fold it.
  void unapplied_affine(const Node& n);
  // Drops the layers split into parts (run's last step).
  void drop_split_layers();
  [[noreturn]] void fail(const Node& n, const std::string& reason) const { model_.fail(n, reason); }

  const OnnxModel& model_;
  bool functional_;
  const std::map<std::string, int>& calibrated_;  // ONNX value -> exponent ("Calibrated scales")
  OnnxImport result_;
  std::map<std::string, OnnxValue> values_;
  std::map<std::string, int> consumers_;      // readers of each value (graph outputs count)
  std::set<const Node*> fused_;
  std::set<std::string> names_;
  std::map<std::string, std::vector<int>> split_layers_;  // a split layer's name -> its parts' layers
  std::map<std::string, std::array<std::int64_t, 4>> folded_pads_;  // a Pad's output -> its top, bottom, left, right
  std::set<std::string> flattened_;  // Flatten outputs that only Gemms read (flattened_gemm)
  std::uint32_t batch_ = 1;
  std::vector<double> recycled_weights_;
  int biased_layers_ = 0, relu6_layers_ = 0, inexact_scales_ = 0, ignored_affines_ = 0;
  int tanh_gelus_ = 0;  // GELUs written in the tanh form, computed in the erf form
};

}  // namespace npusim
