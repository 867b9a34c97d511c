// ResNet-50 in functional mode: the run covers every layer, and the layers whose
// weights do not fit WRAM (split into co blocks, stored with a pitch) equal the
// reference computed from the tensors the run dumped.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"

using namespace npusim::layer_reference;

TEST_CASE("compiler: ResNet-50 runs in functional mode and its co-blocked layers equal the reference",
          "[compiler][e2e][heavy]") {
  const std::string dir = scratch_dir("resnet50-functional");
  auto r = run_npusim({"run", "--quiet", "--functional", "--out", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  std::size_t blocked = 0;
  for (const auto& row : report.at("workload").at("rows")) blocked += row.at("tiling").at("co_blocks") > 1;
  CHECK(blocked >= 10);

  auto t = [&](const std::string& name) { return load(dir + "/tensors/" + name + ".npy"); };
  struct Case {
    const char* input;
    const char* layer;
    std::uint32_t co, k, stride, pad;
    bool relu;
  };
  // 3 blocks of 112, 11 of 48, 8 of 256 (strided) and 8 of 128 (fc as a 1x1 conv).
  const Case cases[] = {{"res4a_branch2a", "res4a_branch2b", 256, 3, 1, 1, true},
                        {"res5a_branch2a", "res5a_branch2b", 512, 3, 1, 1, true},
                        {"res4f", "res5a_branch1", 2048, 1, 2, 0, false},
                        {"pool5", "fc1000", 1000, 1, 1, 0, false}};
  for (const Case& c : cases) {
    INFO("layer " << c.layer);
    const Tensor want = conv(t(c.input), t(std::string(c.layer) + ".weights"), c.co, c.k, c.k, c.stride, c.stride,
                             {c.pad, c.pad, c.pad, c.pad}, c.relu);
    const Tensor got = t(c.layer);
    CHECK(got.h == want.h);
    CHECK(got.w == want.w);
    CHECK(got.c == want.c);
    CHECK(got.v == want.v);
    // Not all zeros: the comparison has something to compare.
    CHECK(std::count(got.v.begin(), got.v.end(), 0) < std::ptrdiff_t(got.v.size()));
  }
}
