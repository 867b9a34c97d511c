#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

namespace npusim {

// Calibrated scales (docs/workload-format.md, "Calibrated scales"): instead of the fixed
// rule (every activation keeps the network input's scale), each tensor takes the
// power-of-two scale that keeps the largest |value| a float evaluation saw within int8.

// The smallest exponent e with peak / 2^e <= 127 (0 when peak is 0): the int8 step that
// keeps `peak` representable. Weights use the same rule (quantize_weights).
int int8_exponent(double peak);

// Tensors that must share one scale (both inputs of an Add and its output, a Concat's
// inputs and output, a pool's input and output): a union of sets over tensor names.
class ScaleGroups {
 public:
  void join(const std::string& a, const std::string& b);
  const std::string& root(const std::string& name) const;
  // Each tensor of `peaks` with the exponent its whole group's largest peak gives.
  std::map<std::string, int> exponents(const std::map<std::string, double>& peaks) const;
  // Keeps the exponent of `name`'s whole group within [low, high] (an engine's range).
  void limit(const std::string& name, int low, int high, std::map<std::string, int>& exponents) const;

 private:
  mutable std::map<std::string, std::string> parent_;
};

// The groups the importer needs in a graph: an Add of two activations joins both
// inputs and its output (npusim adds int8 steps of one scale); a Concat joins its inputs
// and output; a pool, Relu and the layout-only ops (Reshape, Flatten, Transpose, ...)
// keep their input's scale. `constant` tells an initializer or folded constant.
ScaleGroups onnx_scale_groups(const onnx::GraphProto& graph,
                              const std::function<bool(const std::string&)>& constant);

// A value that a Div or Mul by one power-of-two constant makes from another: that other
// value and how the importer moves its exponent (Div by 8: -3); nullopt for any other value.
using ScaledFrom = std::function<std::optional<std::pair<std::string, int>>(const std::string&)>;

// The vector unit's activations (Sigmoid, HardSigmoid, HardSwish, Tanh) read inputs with 0
// to 7 fraction bits (docs/workload-format.md, ONNX quantization): their inputs' groups
// keep exponents in [-7, 0], saturating what lies beyond rather than refusing the model.
// Through a Div or Mul by a constant (`scaled_from`) the range moves with the exponent.
void limit_activation_inputs(const onnx::GraphProto& graph, const ScaleGroups& groups,
                             std::map<std::string, int>& exponents, const ScaledFrom& scaled_from);

// `count` seeded random inputs of `elements` values, uniform in [-range, range]: the same
// seed gives the same inputs, so a calibrated run repeats.
std::vector<std::vector<double>> calibration_inputs(std::uint64_t seed, int count, std::size_t elements,
                                                    double range);

// What a calibration chose, written in the run's report.
struct Calibration {
  int inputs = 0;            // seeded random inputs evaluated
  std::uint64_t seed = 0;
  std::map<std::string, double> peaks;     // tensor -> max |value| over the inputs
  std::map<std::string, int> exponents;    // tensor -> the chosen exponent (one step = 2^e)
};

// The report's `calibration` section (JSON object text): the rule, the inputs, and
// tensor -> exponent with the peak that chose it.
std::string calibration_json(const Calibration& c);

}  // namespace npusim
