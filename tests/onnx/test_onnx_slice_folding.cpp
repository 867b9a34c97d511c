// ONNX Slice of a packed projection (nn.MultiheadAttention's in_proj) and shape
// arithmetic folded at import (Mod, Where, ConstantOfShape, Expand, Range, Equal, Less)
// (docs/workload-format.md, "Structure: padding, pooling, reshapes, grouped convs").
#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"
#include "onnx/OnnxComparison.h"
#include "onnx/OnnxTestGraph.h"

namespace {

std::string slice(OnnxTestGraph& g, const std::string& name, const std::string& in, std::int64_t start,
                  std::int64_t end, std::int64_t axis) {
  return g.node("Slice", name,
                {in, int64_initializer(g, name + ".starts", {start}), int64_initializer(g, name + ".ends", {end}),
                 int64_initializer(g, name + ".axes", {axis})})
      .output(0);
}

std::string scalar(OnnxTestGraph& g, const std::string& name, std::int64_t v) {
  auto* t = g.model.mutable_graph()->add_initializer();
  t->set_name(name), t->set_data_type(onnx::TensorProto::INT64), t->add_int64_data(v);
  return name;
}

}  // namespace

TEST_CASE("onnx: Slices of a packed projection's channels become one projection per slice",
          "[onnx][structure][e2e]") {
  OnnxTestGraph g = exact_graph({2, 3, 5, 5});
  const std::string proj = g.unary("Relu", "proj_r", g.conv("proj", "input", 3, 24, 3, 1, 1));
  const std::string q = g.conv("pq", slice(g, "q", proj, 0, 8, 1), 8, 4, 1);
  const std::string k = g.conv("pk", slice(g, "k", proj, 8, 16, -3), 8, 4, 1);
  const std::string v = g.conv("pv", slice(g, "v", proj, 16, 1 << 30, 1), 8, 4, 1);
  auto& join = g.node("Concat", "join", {q, k, v});
  set_int(join, "axis", 1);
  g.output(join.output(0));
  const Comparison c = run_and_compare(g, {{"pq", q}, {"pk", k}, {"pv", v}, {"join", join.output(0)}}, true,
                                       "onnx-slice-projection");
  CHECK(c.nonzero > c.elements / 4);
  const std::string dir = scratch_dir("onnx-slice-projection-t");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  CHECK(rows.size() == 3 + 3 + 1);  // proj_0..2, the three projections, the concat
  CHECK(row_named(rows, "proj_1")["macs"] == 2 * 5 * 5 * 8 * 9 * 3);
}

TEST_CASE("onnx: a Slice end of INT64_MAX that went through constant folding still means to the end",
          "[onnx][structure][e2e]") {
  // Folding computes in doubles: INT64_MAX came back as 2^63, and converting that to int64
  // is undefined (UBSan, fuzz_onnx at stop 52; on x86 it gave INT64_MIN, an empty slice).
  OnnxTestGraph g({1, 3, 5, 5});
  const std::string proj = g.conv("proj", "input", 3, 24, 1);
  auto& end = g.node("Concat", "end", {int64_initializer(g, "big", {std::numeric_limits<std::int64_t>::max()})});
  set_int(end, "axis", 0);
  const std::string q = g.conv("pq", slice(g, "q", proj, 0, 8, 1), 8, 4, 1);
  const std::string k = g.conv("pk", slice(g, "k", proj, 8, 16, 1), 8, 4, 1);
  auto& v = g.node("Slice", "v", {proj, int64_initializer(g, "v.starts", {16}), end.output(0),
                                  int64_initializer(g, "v.axes", {1})});
  auto& join = g.node("Concat", "join", {q, k, g.conv("pv", v.output(0), 8, 4, 1)});
  set_int(join, "axis", 1);
  g.output(join.output(0));
  const std::string dir = scratch_dir("onnx-slice-int64-max");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  CHECK(row_named(rows, "pv")["macs"] == 5 * 5 * 4 * 8);
}

TEST_CASE("onnx: a Slice that is not a block of a projection's channels exits 2 naming the node",
          "[onnx][structure][e2e]") {
  const std::string dir = scratch_dir("onnx-slice-bad");
  OnnxTestGraph g({1, 3, 6, 6});
  g.output(g.conv("c", slice(g, "rows", g.conv("p", "input", 3, 4, 1), 0, 3, 2), 4, 4, 1));
  check_refused(run_npusim({"validate", g.save(dir + "/rows.onnx")}),
                {"node 'rows' (Slice)", "output channels into blocks"});
}

TEST_CASE("onnx: Mod, Less, Where, ConstantOfShape, Expand, Range and Equal on shapes are folded at import",
          "[onnx][structure][e2e]") {
  // A Reshape whose target is computed from Shape(x) = [1, 6, 8] by the ops Swin's and
  // ViT's exports write: Where(Less(Mod(s, 5), 2), s, Expand(-1, [3])) = [1, 6, -1],
  // then Where(Equal(Range(0, 3, 1), 1), that, s) = [1, 6, 8].
  OnnxTestGraph g({1, 6, 8});
  const std::string s = g.node("Shape", "s", {"input"}).output(0);
  auto& five = g.node("ConstantOfShape", "five", {int64_initializer(g, "three", {3})});
  auto* value = five.add_attribute();
  value->set_name("value"), value->set_type(onnx::AttributeProto::TENSOR);
  value->mutable_t()->set_data_type(onnx::TensorProto::INT64), value->mutable_t()->add_dims(1);
  value->mutable_t()->add_int64_data(5);
  const std::string mod = g.node("Mod", "mod", {s, five.output(0)}).output(0);
  const std::string small = g.node("Less", "small", {mod, int64_initializer(g, "two", {2})}).output(0);
  const std::string minus = g.node("Expand", "minus", {int64_initializer(g, "m1", {-1}), "three"}).output(0);
  const std::string first = g.node("Where", "first", {small, s, minus}).output(0);
  const std::string range =
      g.node("Range", "range", {scalar(g, "zero", 0), scalar(g, "three_s", 3), scalar(g, "one", 1)}).output(0);
  const std::string middle = g.node("Equal", "middle", {range, "one"}).output(0);
  const std::string target = g.node("Where", "target", {middle, first, s}).output(0);
  const std::string shaped = g.node("Reshape", "shaped", {"input", target}).output(0);
  g.output(g.matmul("fc", shaped, 8, 4));
  const std::string dir = scratch_dir("onnx-shape-folding");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  REQUIRE(rows.size() == 1);
  CHECK(row_named(rows, "fc")["macs"] == 6 * 8 * 4);
}

TEST_CASE("onnx: ScatterND and Not on shapes are folded at import, a Pad that adds nothing is no layer",
          "[onnx][structure][e2e]") {
  // Swin's mask arithmetic: a target written into ones by ScatterND, selected by Not.
  OnnxTestGraph g({1, 6, 8});
  auto& ones = g.node("ConstantOfShape", "ones", {int64_initializer(g, "three", {3})});
  auto* value = ones.add_attribute();
  value->set_name("value"), value->set_type(onnx::AttributeProto::TENSOR);
  value->mutable_t()->set_data_type(onnx::TensorProto::INT64), value->mutable_t()->add_dims(1);
  value->mutable_t()->add_int64_data(1);
  auto* index = g.model.mutable_graph()->add_initializer();
  index->set_name("where"), index->set_data_type(onnx::TensorProto::INT64), index->add_dims(2), index->add_dims(1);
  index->add_int64_data(1), index->add_int64_data(2);
  const std::string written =
      g.node("ScatterND", "written", {ones.output(0), "where", int64_initializer(g, "sizes", {6, 8})}).output(0);
  const std::string same = g.node("Equal", "same", {written, written}).output(0);
  const std::string never = g.node("Not", "never", {same}).output(0);
  const std::string target = g.node("Where", "target", {never, ones.output(0), written}).output(0);
  const std::string padded =
      g.node("Pad", "nothing", {"input", int64_initializer(g, "no_pads", {0, 0, 0, 0, 0, 0})}).output(0);
  g.output(g.matmul("fc", g.node("Reshape", "shaped", {padded, target}).output(0), 8, 4));
  const std::string dir = scratch_dir("onnx-scatter-folding");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  REQUIRE(rows.size() == 1);
  CHECK(row_named(rows, "fc")["macs"] == 6 * 8 * 4);
}

TEST_CASE("onnx: Slice (reversed), Transpose and Reshape of 2-D constants are folded at import",
          "[onnx][structure][e2e]") {
  // F.pad's pads as PyTorch computes them: a table's rows reversed, transposed, flattened;
  // here the first three of [[8, 0], [6, 0], [1, 0]] so treated give the target [1, 6, 8].
  OnnxTestGraph g({1, 6, 8});
  auto* table = g.model.mutable_graph()->add_initializer();
  table->set_name("table"), table->set_data_type(onnx::TensorProto::INT64), table->add_dims(3), table->add_dims(2);
  for (std::int64_t v : {8, 0, 6, 0, 1, 0}) table->add_int64_data(v);
  const std::string reversed =
      g.node("Slice", "reversed", {"table", int64_initializer(g, "last", {-1}),
                                   int64_initializer(g, "before_first", {-9223372036854775807LL}),
                                   int64_initializer(g, "rows", {0}), int64_initializer(g, "back", {-1})})
          .output(0);
  auto& turned = g.node("Transpose", "turned", {reversed});
  set_ints(turned, "perm", {1, 0});
  const std::string flat = g.node("Reshape", "flat", {turned.output(0), int64_initializer(g, "all", {-1})}).output(0);
  const std::string target =
      g.node("Slice", "target", {flat, int64_initializer(g, "zero", {0}), int64_initializer(g, "three", {3})}).output(0);
  g.output(g.matmul("fc", g.node("Reshape", "shaped", {"input", target}).output(0), 8, 4));
  const std::string dir = scratch_dir("onnx-nd-folding");
  const auto rows = report_rows(g.save(dir + "/m.onnx"), dir);
  REQUIRE(rows.size() == 1);
  CHECK(row_named(rows, "fc")["macs"] == 6 * 8 * 4);
}
