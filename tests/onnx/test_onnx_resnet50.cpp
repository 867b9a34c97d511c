// ResNet-50 as an ONNX graph (built here like an unfolded PyTorch export: Conv,
// BatchNormalization, Relu, Add, pools, Flatten, Gemm) against the bundled
// traces/workloads/resnet50.json: the same layer list, shapes, MACs and cycles.
// The bundled file follows the original model (stride 2 on the first 1x1 of
// conv3_1/4_1/5_1); torchvision's is v1.5 (stride 2 on the 3x3), checked apart.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "onnx/OnnxTestGraph.h"

namespace {

// conv + BatchNormalization (+ Relu); names as in resnet50.json.
std::string conv_bn(OnnxTestGraph& g, const std::string& name, const std::string& in, std::int64_t ci, std::int64_t co,
                    std::int64_t k, std::int64_t stride, bool relu) {
  std::string x = g.batch_norm(name + "_bn", g.conv(name, in, ci, co, k, stride, k / 2), co);
  return relu ? g.unary("Relu", name + "_relu", x) : x;
}

void resnet50(OnnxTestGraph& g, bool stride_on_3x3) {
  g.weight = [](std::mt19937&) { return 0.0f; };  // only shapes matter for timing
  std::string x = g.pool("MaxPool", "pool1", conv_bn(g, "conv1", "input", 3, 64, 7, 2, true), 3, 2, 1);
  std::int64_t ci = 64;
  const std::int64_t blocks[] = {3, 4, 6, 3};
  for (int stage = 0; stage < 4; ++stage) {
    const std::int64_t width = 64 << stage;
    for (std::int64_t b = 0; b < blocks[stage]; ++b) {
      const std::string name = "res" + std::to_string(stage + 2) + char('a' + b);
      const std::int64_t stride = b == 0 && stage > 0 ? 2 : 1;
      std::string y = conv_bn(g, name + "_branch2a", x, ci, width, 1, stride_on_3x3 ? 1 : stride, true);
      y = conv_bn(g, name + "_branch2b", y, width, width, 3, stride_on_3x3 ? stride : 1, true);
      y = conv_bn(g, name + "_branch2c", y, width, width * 4, 1, 1, false);
      const std::string shortcut = b == 0 ? conv_bn(g, name + "_branch1", x, ci, width * 4, 1, stride, false) : x;
      x = g.unary("Relu", name + "_relu", g.add(name, y, shortcut));
      ci = width * 4;
    }
  }
  x = g.gemm("fc1000", g.flatten("flatten", g.pool("GlobalAveragePool", "pool5", x, 0, 0, 0)), 2048, 1000);
  g.output(x);
}

std::uint64_t total_cycles(const std::string& workload, const std::string& dir) {
  const auto r = run_npusim({"run", "--quiet", "--workload", workload, "--out", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(read_text(dir + "/report.json")).at("total_cycles").get<std::uint64_t>();
}

}  // namespace

TEST_CASE("onnx: ResNet-50 imports as exactly the bundled resnet50.json, with the same cycles", "[onnx][e2e][heavy]") {
  const std::string dir = scratch_dir("onnx-resnet50");
  OnnxTestGraph g({1, 3, 224, 224});
  resnet50(g, false);
  const std::string model = g.save(dir + "/resnet50.onnx");
  const npusim::Workload got = npusim::read_workload(model);
  const npusim::Workload want = npusim::read_workload(source_path("traces/workloads/resnet50.json"));
  REQUIRE(got.layers.size() == want.layers.size());
  CHECK(got.batch == want.batch);
  CHECK(got.input == want.input);
  std::uint64_t macs = 0;
  for (std::size_t i = 0; i < got.layers.size(); ++i) {
    const auto &a = got.layers[i], &b = want.layers[i];
    INFO("layer " << i << ": " << a.name << " / " << b.name);
    CHECK(a.name == b.name);
    CHECK(a.kind == b.kind);
    CHECK(a.inputs == b.inputs);
    CHECK(a.in == b.in);
    CHECK(a.out == b.out);
    CHECK((a.kh == b.kh && a.kw == b.kw && a.sh == b.sh && a.sw == b.sw && a.dilation == b.dilation));
    CHECK(a.pad == b.pad);
    CHECK(a.pool_max == b.pool_max);
    CHECK(a.relu == b.relu);
    CHECK(a.macs() == b.macs());
    macs += a.macs();
  }
  CHECK(macs == 3857973248u);  // the original model's 3.86 GMACs (He et al. count 3.8 G FLOPs as multiply-adds)
  CHECK(total_cycles(model, dir + "/onnx") == total_cycles(source_path("traces/workloads/resnet50.json"), dir + "/json"));
}

TEST_CASE("onnx: torchvision's ResNet-50 (v1.5) differs from resnet50.json only where its stride sits",
          "[onnx][e2e][heavy]") {
  const std::string dir = scratch_dir("onnx-resnet50-v15");
  OnnxTestGraph g({1, 3, 224, 224});
  resnet50(g, true);
  const npusim::Workload got = npusim::read_workload(g.save(dir + "/resnet50-v1.5.onnx"));
  const npusim::Workload want = npusim::read_workload(source_path("traces/workloads/resnet50.json"));
  REQUIRE(got.layers.size() == want.layers.size());
  std::int64_t extra = 0;
  for (std::size_t i = 0; i < got.layers.size(); ++i) {
    const auto &a = got.layers[i], &b = want.layers[i];
    INFO(a.name);
    const bool moved = a.name == "res3a_branch2a" || a.name == "res4a_branch2a" || a.name == "res5a_branch2a" ||
                       a.name == "res3a_branch2b" || a.name == "res4a_branch2b" || a.name == "res5a_branch2b";
    CHECK((a.sh == b.sh) != moved);
    // The reduce keeps the full map; from the 3x3 on, shapes are the same either way.
    if (a.name.find("a_branch2a") == std::string::npos || !moved) CHECK(a.out == b.out);
    if (!moved) CHECK(a.macs() == b.macs());
    extra += std::int64_t(a.macs()) - std::int64_t(b.macs());
  }
  // The 1x1 reduce runs on the full map (4x positions): 3/4 of its v1.5 MACs are extra.
  std::int64_t reduce = 0;
  for (const auto& l : got.layers)
    if (l.name == "res3a_branch2a" || l.name == "res4a_branch2a" || l.name == "res5a_branch2a")
      reduce += std::int64_t(l.macs());
  CHECK(extra == reduce * 3 / 4);
  CHECK(extra == 231211008);  // 4.089 G - 3.858 G
}
