// Resize imported from ONNX (docs/workload-format.md, "Upsampling"): the layer it becomes,
// on which engine, and the Resize nodes refused. Its functional comparison with a numpy
// evaluation of the graph is ctest onnx_resize_against_numpy (tests/onnx/resize_graphs.py).
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"
#include "onnx/OnnxTestGraph.h"

namespace {

void text_attribute(onnx::NodeProto& n, const char* name, const std::string& value) {
  auto* a = n.add_attribute();
  a->set_name(name), a->set_type(onnx::AttributeProto::STRING), a->set_s(value);
}

// Resize of `in` to `sizes` (int64, input 3), or by `scales` (float, input 2) when sizes is empty.
onnx::NodeProto& resize(OnnxTestGraph& g, const std::string& name, const std::string& in, const std::string& mode,
                        const std::vector<std::int64_t>& sizes, const std::vector<float>& scales = {}) {
  std::vector<std::string> inputs = {in, "", ""};
  if (sizes.empty()) {
    inputs[2] = g.initializer(name + ".scales", {std::int64_t(scales.size())}, scales);
  } else {
    auto* t = g.model.mutable_graph()->add_initializer();
    t->set_name(name + ".sizes"), t->set_data_type(onnx::TensorProto::INT64), t->add_dims(std::int64_t(sizes.size()));
    for (auto s : sizes) t->add_int64_data(s);
    inputs.push_back(t->name());
  }
  auto& n = g.node("Resize", name, inputs);
  text_attribute(n, "mode", mode);
  return n;
}

}  // namespace

TEST_CASE("onnx: a bilinear Resize by sizes and a nearest one by scales become upsample layers on the vector unit",
          "[onnx][upsample][e2e]") {
  const std::string dir = scratch_dir("onnx-resize");
  OnnxTestGraph g({1, 8, 7, 7});
  const std::string x = g.conv("head", "input", 8, 4, 1);
  const std::string up = resize(g, "up", x, "linear", {1, 4, 28, 21}).output(0);
  g.output(resize(g, "near", up, "nearest", {}, {1, 1, 2, 2}).output(0));
  const auto r = run_npusim({"run", "--quiet", "--workload", g.save(dir + "/resize.onnx"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(dir + "/run/report.json");
  const auto report = nlohmann::json::parse(in);
  const auto& rows = report["workload"]["rows"];
  REQUIRE(rows.size() == 3);
  for (int i : {1, 2}) {
    CHECK(rows[i]["kind"] == "upsample");
    CHECK(rows[i]["engine"] == "vector");
    CHECK(rows[i]["macs"] == 0);
  }
  CHECK(report["energy"]["macs"] == 7 * 7 * 4 * 8);  // the conv's alone
}

TEST_CASE("onnx: Resize nodes the upsample layer cannot follow exit 2 naming the node", "[onnx][upsample][e2e]") {
  const std::string dir = scratch_dir("onnx-resize-bad");
  OnnxTestGraph g({1, 8, 5, 5});
  SECTION("cubic") {
    g.output(resize(g, "cubic", "input", "cubic", {1, 8, 10, 10}).output(0));
    check_refused(run_npusim({"validate", g.save(dir + "/cubic.onnx")}), {"node 'cubic' (Resize)", "mode 'cubic'"});
  }
  SECTION("scales that give no whole size") {
    g.output(resize(g, "odd", "input", "linear", {}, {1, 1, 1.5f, 1.5f}).output(0));
    check_refused(run_npusim({"validate", g.save(dir + "/odd.onnx")}), {"node 'odd' (Resize)", "whole size"});
  }
  SECTION("a Resize of the channels") {
    g.output(resize(g, "channels", "input", "nearest", {1, 16, 5, 5}).output(0));
    check_refused(run_npusim({"validate", g.save(dir + "/c.onnx")}), {"node 'channels' (Resize)", "only H and W"});
  }
  SECTION("tf_crop_and_resize") {
    text_attribute(resize(g, "crop", "input", "linear", {1, 8, 10, 10}), "coordinate_transformation_mode",
                   "tf_crop_and_resize");
    g.output("crop.out");
    check_refused(run_npusim({"validate", g.save(dir + "/crop.onnx")}), {"node 'crop' (Resize)", "tf_crop_and_resize"});
  }
}
