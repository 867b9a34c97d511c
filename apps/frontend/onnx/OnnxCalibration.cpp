#include "apps/frontend/onnx/OnnxCalibration.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include <fmt/format.h>

namespace npusim {

int int8_exponent(double peak) {
  if (!(peak > 0)) return 0;
  int e = int(std::ceil(std::log2(peak / 127.0)));
  if (std::ldexp(peak, -e) > 127.0) ++e;  // log2 rounding at an exact power
  return e;
}

void ScaleGroups::join(const std::string& a, const std::string& b) {
  const std::string ra = root(a), rb = root(b);
  if (ra != rb) parent_[std::max(ra, rb)] = std::min(ra, rb);  // the smaller name leads: runs repeat
}

const std::string& ScaleGroups::root(const std::string& name) const {
  auto it = parent_.find(name);
  if (it == parent_.end()) it = parent_.emplace(name, name).first;
  if (it->second == name) return it->first;
  const std::string& r = root(it->second);
  it->second = r;  // path compression
  return r;
}

std::map<std::string, int> ScaleGroups::exponents(const std::map<std::string, double>& peaks) const {
  std::map<std::string, double> group_peak;
  for (const auto& [name, peak] : peaks) {
    double& g = group_peak[root(name)];
    g = std::max(g, peak);
  }
  std::map<std::string, int> out;
  for (const auto& [name, peak] : peaks) out[name] = int8_exponent(group_peak[root(name)]);
  return out;
}

ScaleGroups onnx_scale_groups(const onnx::GraphProto& graph,
                              const std::function<bool(const std::string&)>& constant) {
  static const std::set<std::string> keeps = {"Add", "Concat", "MaxPool", "AveragePool", "GlobalAveragePool",
                                              "GlobalMaxPool", "Relu", "Reshape", "Flatten", "Transpose",
                                              "Identity", "Dropout", "Squeeze", "Unsqueeze"};
  ScaleGroups groups;
  for (const auto& n : graph.node()) {
    if (!keeps.count(n.op_type()) || n.output_size() < 1) continue;
    const std::size_t data_inputs = n.op_type() == "Add" || n.op_type() == "Concat" ? std::size_t(n.input_size()) : 1;
    for (std::size_t i = 0; i < data_inputs && int(i) < n.input_size(); ++i)
      if (!n.input(int(i)).empty() && !constant(n.input(int(i)))) groups.join(n.output(0), n.input(int(i)));
  }
  return groups;
}

void ScaleGroups::limit(const std::string& name, int low, int high, std::map<std::string, int>& exponents) const {
  const std::string group = root(name);
  for (auto& [member, e] : exponents)
    if (root(member) == group) e = std::clamp(e, low, high);
}

void limit_activation_inputs(const onnx::GraphProto& graph, const ScaleGroups& groups,
                             std::map<std::string, int>& exponents, const ScaledFrom& scaled_from) {
  static const std::set<std::string> lookups = {"Sigmoid", "HardSigmoid", "HardSwish", "Tanh"};
  for (const auto& n : graph.node()) {
    if (!lookups.count(n.op_type()) || n.input_size() < 1) continue;
    std::string value = n.input(0);
    int low = -7, high = 0;
    for (int hop = 0; hop < 8; ++hop) {  // x / 8 / 2 ...: a short chain
      const auto from = scaled_from ? scaled_from(value) : std::nullopt;
      if (!from) break;
      value = from->first, low -= from->second, high -= from->second;
    }
    groups.limit(value, low, high, exponents);
  }
}

std::vector<std::vector<double>> calibration_inputs(std::uint64_t seed, int count, std::size_t elements,
                                                    double range) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> draw(-range, range);
  std::vector<std::vector<double>> inputs(std::size_t(std::max(count, 0)), std::vector<double>(elements));
  for (auto& input : inputs)
    for (double& v : input) v = draw(gen);
  return inputs;
}

std::string calibration_json(const Calibration& c) {
  std::string tensors;
  for (const auto& [name, e] : c.exponents) {
    const auto p = c.peaks.find(name);
    tensors += fmt::format("{}\n      \"{}\": {{\"exponent\": {}, \"peak\": {:.6g}}}", tensors.empty() ? "" : ",", name,
                           e, p == c.peaks.end() ? 0.0 : p->second);
  }
  return fmt::format(
      "{{\n    \"rule\": \"per tensor, the smallest power of two 2^e with max |value| / 2^e <= 127 over the "
      "inputs; tensors an Add, Concat or pool joins share their group's largest\",\n    \"inputs\": {},\n"
      "    \"seed\": {},\n    \"tensors\": {{{}\n    }}\n  }}",
      c.inputs, c.seed, tensors);
}

}  // namespace npusim
