// gather_channels (docs/workload-format.md, "Channel shuffle"): output channel k is input
// channel channels[k], moved by the load and store DMAs run by run; checked in functional
// mode against a plain reference from the dumped tensors, and the ONNX channel shuffle
// (Reshape, Transpose, Reshape) it comes from, folded into a Conv where one reads it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/ReferenceLayers.h"
#include "compiler/FunctionalRun.h"
#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"

using namespace npusim::layer_reference;

TEST_CASE("compiler: gather_channels moves each output channel from its input channel with the DMAs alone",
          "[compiler][shuffle][e2e]") {
  std::mt19937 rng(67);
  const std::string dir = scratch_dir("gather-channels");
  for (int trial = 0; trial < 3; ++trial) {
    const std::uint32_t h = 1 + rng() % 20, w = 1 + rng() % 9, c = 2 + rng() % 60, batch = 1 + rng() % 3;
    std::vector<std::uint32_t> ids;
    const std::uint32_t groups = trial == 0 ? 2 : 1 + rng() % 4;
    for (std::uint32_t j = 0; j < c / groups; ++j)  // a shuffle of `groups` groups, then some drawn channels
      for (std::uint32_t g = 0; g < groups; ++g) ids.push_back(g * (c / groups) + j);
    for (int extra = 0; extra < trial; ++extra) ids.push_back(rng() % c);
    INFO(fmt::format("trial {}: {}x{}x{} batch {}, channels [{}]", trial, h, w, c, batch, fmt::join(ids, ", ")));
    const std::string path = dir + fmt::format("/g{}.json", trial);
    write_text(path, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": {}, "c": {}}}, "layers": [
      {{"name": "g", "type": "gather_channels", "channels": [{}]}}]}})",
                                 batch, trial + 9, h, w, c, fmt::join(ids, ", ")));
    const std::string config = source_path(trial == 1 ? "configs/numa-2x2.json" : "configs/smp-2x2.json");
    const std::string out = dir + fmt::format("/out{}", trial);
    const std::string t = run_functional(path, config, out);
    const Tensor x = load(t + "input.npy"), got = load(t + "g.npy");
    std::vector<std::int8_t> want;
    for (std::size_t p = 0; p < std::size_t(batch) * h * w; ++p)
      for (const std::uint32_t id : ids) want.push_back(x.v[p * c + id]);
    CHECK(got.v == want);
  }
}

TEST_CASE("workload: gather_channels naming a channel the input lacks exits 2 naming the layer",
          "[compiler][shuffle][e2e]") {
  const std::string dir = scratch_dir("gather-channels-bad");
  const std::string path = dir + "/bad.json";
  write_text(path, R"({"input": {"h": 3, "w": 1, "c": 4}, "layers": [
    {"name": "g", "type": "gather_channels", "channels": [0, 4]}]})");
  const auto r = run_npusim({"run", "--quiet", "--workload", path, "--out", dir + "/out"});
  check_refused(r, {"layers[0] (g), field 'channels'", "channels[1] is 4"});
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("onnx: ShuffleNet's channel shuffles become gather_channels for the Slices and fold into the last conv",
          "[onnx][shuffle][e2e]") {
  const std::string dir = scratch_dir("onnx-shuffle");
  const auto r = run_npusim({"run", "--quiet", "--workload", source_path("tests/onnx/data/shuffle_blocks.onnx"),
                             "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(dir + "/run/report.json");
  const auto report = nlohmann::json::parse(in);
  std::vector<std::string> kinds;
  for (const auto& row : report["workload"]["rows"]) kinds.push_back(row["kind"]);
  // The downsampling block's shuffle is read by the two Slices of the next block: two
  // gathers; the last block's shuffle only by the 1x1 conv: folded, no gather.
  CHECK(std::count(kinds.begin(), kinds.end(), "gather_channels") == 2);
  CHECK(std::count(kinds.begin(), kinds.end(), "concat") == 2);
}
