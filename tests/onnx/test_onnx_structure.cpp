// ONNX structure: padding, pooling, reshapes and grouped convs (docs/workload-format.md,
// "Structure: padding, pooling, reshapes, grouped convs"). Each pattern runs in
// functional mode against OnnxReference, exactly where the weights are int8 values
// times a power of two; MACs are counted by hand.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"
#include "onnx/OnnxComparison.h"
#include "onnx/OnnxTestGraph.h"

namespace {

using Dims = OnnxTestGraph::Dims;

std::string pad(OnnxTestGraph& g, const std::string& name, const std::string& in, const Dims& pads) {
  return g.node("Pad", name, {in, int64_initializer(g, name + ".pads", pads)}).output(0);
}

}  // namespace

TEST_CASE("onnx: x.mean((2, 3)) (ReduceMean, keepdims 0) before a Gemm is a global average pool and an fc",
          "[onnx][structure][e2e]") {
  OnnxTestGraph g = exact_graph({2, 3, 8, 8});
  const std::string c = g.unary("Relu", "cr", g.conv("c", "input", 3, 16, 3, 1, 1));
  auto& mean = g.node("ReduceMean", "mean", {c});
  set_ints(mean, "axes", {2, 3});
  set_int(mean, "keepdims", 0);
  const std::string fc = g.gemm("fc", mean.output(0), 16, 10);
  g.output(fc);
  const Comparison cmp = run_and_compare(g, {{"c", c}, {"mean", mean.output(0)}, {"fc", fc}}, true, "onnx-mean-gemm");
  CHECK(cmp.nonzero > cmp.elements / 4);
  const std::string dir = scratch_dir("onnx-mean-gemm-t");  // before the save: arguments' order is unspecified
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  CHECK(row_named(rows, "mean")["kind"] == "pool");
  CHECK(row_named(rows, "fc")["macs"] == 2 * 16 * 10);
}

TEST_CASE("onnx: a global average pool over a map larger than NRAM is computed in channel blocks",
          "[onnx][structure][e2e]") {
  // 32 x 32 x 640 int8 is 655,360 bytes, more than the default core's 524,288 of NRAM.
  OnnxTestGraph g = exact_graph({1, 640, 32, 32});
  const std::string pooled = g.pool("GlobalAveragePool", "gap", "input", 0, 0, 0);
  const std::string fc = g.gemm("fc", g.flatten("f", pooled), 640, 8);
  g.output(fc);
  const Comparison cmp = run_and_compare(g, {{"gap", pooled}, {"fc", fc}}, true, "onnx-gap-blocks");
  CHECK(cmp.nonzero > cmp.elements / 2);
  const std::string dir = scratch_dir("onnx-gap-blocks-t");
  const auto gap = row_named(report_rows(g.save(dir + "/m.onnx"), dir), "gap");
  CHECK(gap["tiling"]["co_blocks"] == 2);  // two blocks of 320 channels: 327,680 bytes each
  CHECK(gap["tiling"]["co_block"] == 320);
}

TEST_CASE("onnx: a Flatten of a C x H x W map before a Gemm is a conv over the whole map, weights permuted",
          "[onnx][structure][e2e]") {
  // AlexNet's 256 x 6 x 6 -> 9216 -> Linear, small: NCHW order of the features is kept.
  OnnxTestGraph g = exact_graph({2, 3, 6, 5});
  const std::string c = g.unary("Relu", "cr", g.conv("c", "input", 3, 8, 3, 1, 1));
  const std::string fc = g.gemm("fc", g.flatten("flat", c), 8 * 6 * 5, 12);
  const std::string fr = g.unary("Relu", "fr", fc);
  const std::string fc2 = g.gemm("fc2", fr, 12, 4);
  g.output(fc2);
  const Comparison cmp = run_and_compare(g, {{"c", c}, {"fc", fr}, {"fc2", fc2}}, true, "onnx-flatten-gemm");
  CHECK(cmp.nonzero > cmp.elements / 4);
  const std::string dir = scratch_dir("onnx-flatten-gemm-t");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  CHECK(row_named(rows, "fc")["kind"] == "conv");
  CHECK(row_named(rows, "fc")["macs"] == 2 * 8 * 6 * 5 * 12);
}

TEST_CASE("onnx: pooling with ceil_mode 1 keeps the last, partly outside window", "[onnx][structure][e2e]") {
  // SqueezeNet's and GoogLeNet's MaxPool(3, 2, ceil_mode=True): 8 -> 4 rows, not 3.
  OnnxTestGraph g = exact_graph({2, 3, 8, 9});
  const std::string c = g.unary("Relu", "cr", g.conv("c", "input", 3, 8, 3, 1, 1));
  auto& max = g.node("MaxPool", "maxc", {c});
  set_ints(max, "kernel_shape", {3, 3}), set_ints(max, "strides", {2, 2}), set_int(max, "ceil_mode", 1);
  auto& avg = g.node("AveragePool", "avgc", {max.output(0)});
  set_ints(avg, "kernel_shape", {3, 3}), set_ints(avg, "strides", {2, 2}), set_int(avg, "ceil_mode", 1);
  const std::string head = g.conv("head", avg.output(0), 8, 4, 1);
  g.output(head);
  const Comparison cmp = run_and_compare(g, {{"maxc", max.output(0)}, {"avgc", avg.output(0)}, {"head", head}}, true,
                                         "onnx-ceil-mode");
  CHECK(cmp.nonzero > cmp.elements / 4);
  const std::string dir = scratch_dir("onnx-ceil-mode-t");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  CHECK(row_named(rows, "head")["macs"] == 2 * 2 * 2 * 8 * 4);  // 8x9 -> 4x4 -> 2x2
}

TEST_CASE("onnx: a Pad before a Conv or an AveragePool is folded into its padding", "[onnx][structure][e2e]") {
  OnnxTestGraph g = exact_graph({2, 3, 7, 7});
  const std::string c = g.unary("Relu", "cr", g.conv("c", "input", 3, 8, 3, 1, 1));
  const std::string padded = g.conv("pc", pad(g, "p1", c, {0, 0, 1, 2, 0, 0, 2, 1}), 8, 8, 3);
  // Inception's avg_pool2d(3, 1, padding 1): a Pad then an AveragePool whose average counts the zeros.
  auto& avg = g.node("AveragePool", "avgp", {pad(g, "p2", padded, {0, 0, 1, 1, 0, 0, 1, 1})});
  set_ints(avg, "kernel_shape", {3, 3});
  // And count_include_pad = 1 with pads of its own.
  auto& inc = g.node("AveragePool", "avgi", {avg.output(0)});
  set_ints(inc, "kernel_shape", {3, 3}), set_ints(inc, "pads", {1, 1, 1, 1}), set_int(inc, "count_include_pad", 1);
  g.output(inc.output(0));
  const Comparison cmp = run_and_compare(
      g, {{"c", c}, {"pc", padded}, {"avgp", avg.output(0)}, {"avgi", inc.output(0)}}, true, "onnx-pad");
  CHECK(cmp.nonzero > cmp.elements / 4);
  const std::string dir = scratch_dir("onnx-pad-t");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  CHECK(rows.size() == 4);                                      // the Pads are no layers
  CHECK(row_named(rows, "pc")["macs"] == 2 * 8 * 8 * 8 * 9 * 8);  // 7 + 3 padding - 3 + 1 = 8 rows and columns
}

TEST_CASE("onnx: a BatchNormalization after a concat is a per-channel scale (1x1 depthwise on the vector unit)",
          "[onnx][structure][e2e]") {
  // DenseNet: concat -> BatchNormalization -> ReLU -> conv.
  OnnxTestGraph g({2, 3, 6, 6});
  const std::string a = g.unary("Relu", "ar", g.conv("a", "input", 3, 8, 3, 1, 1));
  auto& join = g.node("Concat", "join", {a, g.unary("Relu", "br", g.conv("b", "input", 3, 4, 1))});
  set_int(join, "axis", 1);
  const std::string norm = g.unary("Relu", "nr", g.batch_norm("norm", join.output(0), 12));
  const std::string head = g.conv("head", norm, 12, 4, 1);
  g.output(head);
  const Comparison cmp = run_and_compare(g, {{"join", join.output(0)}, {"norm", norm}, {"head", head}}, false,
                                         "onnx-bn-alone");
  CHECK(cmp.mean_error < 1.0);
  const std::string dir = scratch_dir("onnx-bn-alone-t");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  CHECK(row_named(rows, "norm")["kind"] == "depthwise");
  CHECK(row_named(rows, "norm")["macs"] == 2 * 6 * 6 * 12);  // one multiply per element
}

TEST_CASE("onnx: a grouped conv (1 < group < C) is one conv layer the matrix unit runs group by group",
          "[onnx][structure][e2e]") {
  // ResNeXt's bottleneck: 1x1 -> BN -> ReLU -> 3x3 group 4 -> BN -> ReLU -> 1x1.
  OnnxTestGraph g = exact_graph({2, 8, 6, 6});
  const std::string reduce = g.unary("Relu", "rr", g.conv("reduce", "input", 8, 16, 1));
  const std::string grouped = g.unary("Relu", "gr", g.conv("grouped", reduce, 16, 24, 3, 2, 1, 4));
  const std::string expand = g.conv("expand", grouped, 24, 8, 1);
  g.output(expand);
  const Comparison cmp = run_and_compare(g, {{"grouped", grouped}, {"expand", expand}}, true, "onnx-grouped");
  CHECK(cmp.nonzero > cmp.elements / 4);
  const std::string dir = scratch_dir("onnx-grouped-t");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  std::uint64_t macs = 0;
  for (const auto& row : rows) macs += row["macs"].get<std::uint64_t>();
  // reduce: 6x6x16x8; grouped: 3x3 outputs x 24 x 9 taps x 4 inputs per group; expand: 3x3x8x24; batch 2.
  CHECK(macs == 2 * (6 * 6 * 16 * 8 + 3 * 3 * 24 * 9 * 4 + 3 * 3 * 8 * 24));
  REQUIRE(rows.size() == 3);
  CHECK(row_named(rows, "grouped")["kind"] == "conv");
  CHECK(row_named(rows, "grouped")["engine"] == "matrix");
  // Weight blocks lie in one group: 6 outputs per group, so blocks of 6 (or a divisor).
  CHECK(6 % row_named(rows, "grouped")["tiling"]["co_block"].get<int>() == 0);
}

TEST_CASE("onnx: a grouped conv of the network input equals the reference", "[onnx][structure][e2e]") {
  OnnxTestGraph g = exact_graph({2, 8, 9, 9});
  const std::string grouped = g.unary("Relu", "gr", g.conv("grouped", "input", 8, 16, 3, 1, 1, 2));
  const std::string expand = g.conv("expand", grouped, 16, 8, 1);
  g.output(expand);
  const Comparison cmp = run_and_compare(g, {{"grouped", grouped}, {"expand", expand}}, true, "onnx-grouped-input");
  CHECK(cmp.nonzero > cmp.elements / 4);
}

TEST_CASE("onnx: structure the importer cannot fold exits 2 naming the node", "[onnx][structure][e2e]") {
  const std::string dir = scratch_dir("onnx-structure-bad");
  SECTION("a Pad read by an Add") {
    OnnxTestGraph g({1, 3, 6, 6});
    const std::string c = g.conv("c", "input", 3, 3, 3, 1, 1);
    const std::string wide = pad(g, "widen", c, {0, 0, 1, 1, 0, 0, 1, 1});
    g.output(g.add("sum", wide, pad(g, "widen2", c, {0, 0, 1, 1, 0, 0, 1, 1})));
    check_refused(run_npusim({"validate", g.save(dir + "/pad-add.onnx")}),
                  {"node 'widen' (Pad)", "is read by node 'sum' (Add)", "would move data"});
  }
  SECTION("a Pad of the channels") {
    OnnxTestGraph g({1, 3, 6, 6});
    g.output(g.conv("c", pad(g, "chan", "input", {0, 1, 0, 0, 0, 0, 0, 0}), 4, 3, 3));
    check_refused(run_npusim({"validate", g.save(dir + "/pad-c.onnx")}), {"node 'chan' (Pad)", "only non-negative padding of H and W"});
  }
  SECTION("ceil_mode with count_include_pad") {
    OnnxTestGraph g({1, 3, 8, 8});
    auto& avg = g.node("AveragePool", "avg", {g.conv("c", "input", 3, 3, 1)});
    set_ints(avg, "kernel_shape", {3, 3}), set_ints(avg, "strides", {2, 2}), set_ints(avg, "pads", {1, 1, 1, 1});
    set_int(avg, "count_include_pad", 1), set_int(avg, "ceil_mode", 1);
    g.output(avg.output(0));
    check_refused(run_npusim({"validate", g.save(dir + "/ceil-pad.onnx")}),
                  {"node 'avg' (AveragePool)", "ceil_mode with count_include_pad"});
  }
}
