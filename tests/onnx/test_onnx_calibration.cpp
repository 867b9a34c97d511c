// Calibrated scales (docs/workload-format.md, "Calibrated scales"): the rule that turns a
// tensor's largest |value| into its power-of-two exponent, the groups that must share one,
// the seeded inputs, and the report section.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/frontend/onnx/OnnxCalibration.h"
#include "apps/frontend/onnx/OnnxFloatPeaks.h"
#include "e2e/NpusimProcess.h"
#include "onnx/OnnxTestGraph.h"

using namespace npusim;

namespace {

// The rule spelled out: try exponents upwards until peak / 2^e fits 127 steps.
int by_hand(double peak) {
  if (peak == 0) return 0;
  int e = -40;
  while (peak / std::pow(2.0, e) > 127.0) ++e;
  return e;
}

// The graph's groups, its initializers told apart as constants.
ScaleGroups groups_of(const OnnxTestGraph& g) {
  std::set<std::string> initializers;
  for (const auto& t : g.model.graph().initializer()) initializers.insert(t.name());
  return onnx_scale_groups(g.model.graph(), [&](const std::string& v) { return initializers.count(v) > 0; });
}

}  // namespace

TEST_CASE("calibration: a tensor whose max is known gets the exponent worked by hand", "[onnx][calibration]") {
  CHECK(int8_exponent(0) == 0);
  CHECK(int8_exponent(127) == 0);     // 127 steps of 1
  CHECK(int8_exponent(127.5) == 1);   // one more needs steps of 2
  CHECK(int8_exponent(254) == 1);
  CHECK(int8_exponent(254.01) == 2);
  CHECK(int8_exponent(1.0) == -6);    // 64 steps of 1/64; 128 steps of 1/128 would not fit
  CHECK(int8_exponent(3.9) == -5);    // 124.8 steps of 1/32
  CHECK(int8_exponent(3.97) == -4);   // 127.04 steps of 1/32 would saturate
  for (double peak : {1e-3, 0.3, 7.77, 126.99, 1000.0, 65535.0, 1.5e6}) {
    INFO(peak);
    CHECK(int8_exponent(peak) == by_hand(peak));
  }
}

TEST_CASE("calibration: tensors an Add, a pool or a Relu joins share one exponent", "[onnx][calibration]") {
  OnnxTestGraph g({1, 4, 8, 8});
  const std::string a = g.conv("a", "input", 4, 4, 3, 1, 1);
  const std::string b = g.conv("b", "input", 4, 4, 1);
  const std::string sum = g.add("sum", a, b);
  const std::string pooled = g.pool("MaxPool", "pool", g.unary("Relu", "relu", sum), 2, 2, 0);
  const std::string c = g.conv("c", pooled, 4, 4, 1);
  g.output(c);
  const ScaleGroups groups = groups_of(g);
  const std::map<std::string, double> peaks = {{"input", 1.0}, {a, 3.9}, {b, 20.0}, {sum, 10.0}, {pooled, 9.0}, {c, 0.3}};
  const auto e = groups.exponents(peaks);
  // a, b, sum, the Relu's output and the pool's share b's peak 20: 2^-2 (80 steps).
  CHECK(e.at(a) == -2);
  CHECK(e.at(b) == -2);
  CHECK(e.at(sum) == -2);
  CHECK(e.at(pooled) == -2);
  CHECK(groups.root(pooled) == groups.root(a));
  // The conv after the pool and the network input are groups of their own.
  CHECK(e.at(c) == by_hand(0.3));
  CHECK(e.at("input") == -6);
  CHECK(groups.root(c) != groups.root(a));
}

TEST_CASE("calibration: seeded inputs repeat, and another seed draws others", "[onnx][calibration]") {
  const auto first = calibration_inputs(42, 3, 100, 2.0);
  REQUIRE(first.size() == 3);
  CHECK(first == calibration_inputs(42, 3, 100, 2.0));
  CHECK(first != calibration_inputs(43, 3, 100, 2.0));
  CHECK(first[0] != first[1]);
  for (const auto& input : first)
    for (double v : input) CHECK(std::fabs(v) <= 2.0);
}

TEST_CASE("calibration: the report section lists tensor, exponent and peak", "[onnx][calibration]") {
  Calibration c;
  c.inputs = 4, c.seed = 7;
  c.peaks = {{"conv1", 3.9}, {"fc", 300.0}};
  c.exponents = {{"conv1", -5}, {"fc", 2}};
  const auto j = nlohmann::json::parse("{\"calibration\": " + calibration_json(c) + "}")["calibration"];
  CHECK(j["inputs"] == 4);
  CHECK(j["seed"] == 7);
  CHECK(j["tensors"]["conv1"]["exponent"] == -5);
  CHECK(j["tensors"]["fc"]["exponent"] == 2);
  CHECK(j["tensors"]["fc"]["peak"] == 300.0);
  CHECK(std::string(j["rule"]).find("127") != std::string::npos);
}

TEST_CASE("calibration: an activation's input keeps 0 to 7 fraction bits, its whole group with it",
          "[onnx][calibration]") {
  OnnxTestGraph g({1, 4, 8, 8});
  const std::string a = g.conv("a", "input", 4, 4, 1);
  const std::string b = g.conv("b", "input", 4, 4, 1);
  const std::string sum = g.add("sum", a, b);
  const std::string gate = g.unary("HardSigmoid", "gate", sum);
  const std::string small = g.conv("small", "input", 4, 4, 1);
  g.output(g.unary("Sigmoid", "squash", small));
  g.output(gate);
  const ScaleGroups groups = groups_of(g);
  // By the rule: sum's group peaks at 500 (2^2), `small` at 0.01 (2^-13).
  auto e = groups.exponents({{a, 3.0}, {b, 500.0}, {sum, 400.0}, {small, 0.01}, {gate, 1.0}});
  REQUIRE(e.at(sum) == 2);
  REQUIRE(e.at(small) == -13);  // 0.01 · 2^13 = 81.9 steps
  limit_activation_inputs(g.model.graph(), groups, e, {});
  CHECK(e.at(a) == 0);
  CHECK(e.at(b) == 0);
  CHECK(e.at(sum) == 0);
  CHECK(e.at(small) == -7);
  CHECK(e.at(gate) == by_hand(1.0));  // an output, not an input: untouched
}

TEST_CASE("calibration: npusim run --calibrate puts the exponents in the report, the layers take them, runs repeat",
          "[onnx][calibration][e2e]") {
  const std::string dir = scratch_dir("onnx-calibrate");
  OnnxTestGraph g({1, 3, 6, 6});
  const std::string a = g.conv("a", "input", 3, 4, 3, 1, 1);
  const std::string b = g.conv("b", g.unary("Relu", "a_r", a), 4, 4, 1);
  g.output(b);
  const std::string model = g.save(dir + "/m.onnx");
  const auto run = [&](const std::string& out) {
    const auto r = run_npusim({"run", "--quiet", "--functional", "--workload", model, "--calibrate", "3", "--out", out});
    INFO(r.output);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(read_text(out + "/report.json"));
  };
  const auto first = run(dir + "/one"), second = run(dir + "/two");
  CHECK(first["calibration"] == second["calibration"]);
  // The peaks by the test's own float evaluation of the same three seeded inputs.
  std::map<std::string, double> peaks;
  for (const auto& input : calibration_inputs(1, 3, 3 * 6 * 6, 127.0)) {
    const OnnxReference ref(g.model, {{1, 3, 6, 6}, input, std::vector<double>(input.size(), 0)}, false);
    for (const std::string& v : {a, b})
      for (double x : ref.values.at(v).v) peaks[v] = std::max(peaks[v], std::fabs(x));
  }
  const auto& tensors = first["calibration"]["tensors"];
  CHECK(tensors[a]["peak"].get<double>() == Approx(peaks[a]).epsilon(1e-5));
  CHECK(tensors[b]["exponent"] == by_hand(peaks[b]));
  for (const auto& row : first["workload"]["rows"]) {
    INFO(row["name"]);
    const std::string value = row["onnx"]["value"];
    if (row["name"] == "b") CHECK(row["onnx"]["scale_exponent"] == by_hand(peaks[b]));
    if (row["name"] == "a") CHECK(row["onnx"]["scale_exponent"] == tensors[value]["exponent"]);
  }
}

TEST_CASE("calibration: an op the float evaluation does not take exits 2 naming the node", "[onnx][calibration][e2e]") {
  const std::string dir = scratch_dir("onnx-calibrate-refused");
  const auto r = run_npusim({"run", "--quiet", "--workload", source_path("tests/onnx/data/tiny_transformer.onnx"),
                             "--calibrate", "1", "--out", dir + "/run"});
  CHECK(r.status == 2);
  CHECK(r.output.rfind("error: ", 0) == 0);
  CHECK(r.output.find("--calibrate") != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("calibration: the float evaluation's peaks match the test's own evaluator, value by value",
          "[onnx][calibration]") {
  const std::string dir = scratch_dir("onnx-calibrate-peaks");
  OnnxTestGraph g({2, 3, 9, 9});
  g.bias = [](std::mt19937& rng) { return std::uniform_real_distribution<float>(-0.5f, 0.5f)(rng); };
  const std::string stem = g.unary("Relu", "stem_r", g.batch_norm("bn", g.conv("stem", "input", 3, 8, 3, 2, 1), 8));
  const std::string a = g.conv("a", stem, 8, 6, 1), b = g.clip6("b_r", g.conv("b", stem, 8, 4, 3, 1, 1, 2));
  const std::string p = g.pool("AveragePool", "p", stem, 3, 1, 1);
  auto& join = g.node("Concat", "mixed", {a, b, p});
  auto* axis = join.add_attribute();
  axis->set_name("axis"), axis->set_type(onnx::AttributeProto::INT), axis->set_i(1);
  const std::string pooled = g.pool("MaxPool", "m", join.output(0), 2, 2, 0);
  g.output(g.gemm("fc", g.flatten("flat", g.pool("GlobalAveragePool", "gap", pooled, 1, 1, 0)), 18, 5));
  const auto model = load_onnx_model(g.save(dir + "/m.onnx"), {});
  std::map<std::string, double> peaks, want;
  for (const auto& input : calibration_inputs(5, 2, 2 * 3 * 9 * 9, 127.0)) {
    raise_float_peaks(*model, input, peaks);
    const OnnxReference ref(g.model, {{2, 3, 9, 9}, input, std::vector<double>(input.size(), 0)}, false);
    for (const auto& [name, v] : ref.values)
      for (double x : v.v) want[name] = std::max(want[name], std::fabs(x));
  }
  REQUIRE(peaks.size() >= 12);
  for (const auto& [name, peak] : peaks) {
    INFO(name);
    REQUIRE(want.count(name));
    CHECK(peak < 127);  // OnnxReference saturates at int8 even in float: a fair comparison below it
    CHECK(peak == Approx(want[name]).epsilon(1e-9));
  }
}

TEST_CASE("calibration: compile --calibrate writes the shift that brings the accumulator to the calibrated scale",
          "[onnx][calibration][e2e]") {
  const std::string dir = scratch_dir("onnx-calibrate-compile");
  OnnxTestGraph g({1, 3, 6, 6});
  // Weights up to 1: sums of up to 27 · 127 need coarser steps than the fixed rule's 1.
  g.weight = [](std::mt19937& rng) { return std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng); };
  const std::string a = g.conv("a", "input", 3, 4, 3, 1, 1);
  g.output(a);
  const std::string model = g.save(dir + "/m.onnx");
  const auto r = run_npusim({"compile", "--workload", model, "--calibrate", "2", "-o", dir + "/t.jsonl"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("calibrated scales for") != std::string::npos);
  double peak = 0, weight_peak = 0;
  // OnnxReference saturates at int8 even in float: the conv spelled out here instead.
  const auto& w = g.model.graph().initializer(0).float_data();  // [4][3][3][3]
  for (const auto& x : calibration_inputs(1, 2, 3 * 6 * 6, 127.0))
    for (int o = 0; o < 4; ++o)
      for (int y = 0; y < 6; ++y)
        for (int z = 0; z < 6; ++z) {
          double acc = 0;
          for (int c = 0; c < 3; ++c)
            for (int ky = 0; ky < 3; ++ky)
              for (int kx = 0; kx < 3; ++kx)
                if (y + ky >= 1 && y + ky <= 6 && z + kx >= 1 && z + kx <= 6)
                  acc += x[std::size_t((c * 6 + y + ky - 1) * 6 + z + kx - 1)] * w[((o * 3 + c) * 3 + ky) * 3 + kx];
          peak = std::max(peak, std::fabs(acc));
        }
  for (float v : w) weight_peak = std::max(weight_peak, std::fabs(double(v)));
  // The input's steps are 1 (2^0): shift = out - (0 + the weights' exponent).
  REQUIRE(by_hand(peak) >= 1);  // not what the fixed rule (output at the input's scale) would give
  const int shift = by_hand(peak) - by_hand(weight_peak);
  const std::string trace = read_text(dir + "/t.jsonl");
  CHECK(trace.find("\"shift\":" + std::to_string(shift) + ",") != std::string::npos);
}

TEST_CASE("calibration: through a Div by a power of two the activation's range moves with the exponent",
          "[onnx][calibration]") {
  OnnxTestGraph g({1, 4, 8, 8});
  const std::string a = g.conv("a", "input", 4, 4, 1);
  const std::string scaled = g.node("Div", "by8", {a, g.initializer("eight", {}, {8.0f})}).output(0);
  g.output(g.unary("Sigmoid", "s", scaled));
  const ScaleGroups groups = groups_of(g);
  auto e = groups.exponents({{a, 0.05}, {scaled, 0.05 / 8}});
  REQUIRE(e.at(a) == -11);  // 0.05 · 2^11 = 102 steps
  // Div by 8 takes 3 from the exponent: a in [-7 + 3, 0 + 3] keeps the Sigmoid's input in [-7, 0].
  const ScaledFrom by8 = [&](const std::string& v) -> std::optional<std::pair<std::string, int>> {
    if (v == scaled) return std::make_pair(a, -3);
    return std::nullopt;
  };
  limit_activation_inputs(g.model.graph(), groups, e, by8);
  CHECK(e.at(a) == -4);
}
