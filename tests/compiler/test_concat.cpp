// The concat layer: functional runs over random shapes against a plain concatenation of
// the dumped input tensors, its reader errors, and the timing of a copy-only layer.
#include <catch2/catch.hpp>

#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/frontend/WorkloadReader.h"
#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"
#include "sim/common/InputError.h"

using namespace npusim::layer_reference;

namespace {

// The channels of `parts` one after the other at every position: the plain definition.
Tensor concatenated(const std::vector<Tensor>& parts) {
  Tensor y = parts.at(0);
  y.c = 0;
  y.v.clear();
  for (const Tensor& p : parts) {
    REQUIRE(p.n == y.n);
    REQUIRE(p.h == y.h);
    REQUIRE(p.w == y.w);
    y.c += p.c;
  }
  for (std::size_t position = 0; position < std::size_t(y.n) * y.h * y.w; ++position)
    for (const Tensor& p : parts)
      y.v.insert(y.v.end(), p.v.begin() + std::ptrdiff_t(position * p.c),
                 p.v.begin() + std::ptrdiff_t((position + 1) * p.c));
  return y;
}

std::string reader_error(const std::string& layers) {
  try {
    npusim::parse_workload_json(R"({"input":{"h":8,"w":8,"c":4},"layers":[)" + layers + "]}", "w.json");
  } catch (const npusim::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("compiler: concat in functional mode equals a plain concatenation of its inputs", "[compiler][concat][e2e][heavy]") {
  std::mt19937 rng(31);
  const std::string dir = scratch_dir("concat-functional");
  // A small NRAM cuts the concat into many one- or two-row bands, single-buffered.
  write_text(dir + "/small.json", "{\"extends\": \"" + source_path("configs/smp-2x2.json") +
                                      "\", \"core\": {\"nram\": {\"capacity_bytes\": 4096}}}");
  const std::vector<std::string> configs = {source_path("configs/default.json"), source_path("configs/smp-2x2.json"),
                                            source_path("configs/numa-2x2.json"), dir + "/small.json"};
  for (int trial = 0; trial < 8; ++trial) {
    const std::uint32_t h = 1 + rng() % 14, w = 1 + rng() % 12, c = 1 + rng() % 24, batch = 1 + trial % 2;
    const std::size_t parts = 2 + rng() % 3;
    // Each part is the network input or a conv of it (1x1 or 3x3) with its own width.
    std::string layers;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < parts; ++i) {
      if (rng() % 4 == 0) {
        names.push_back("input");
        continue;
      }
      names.push_back(fmt::format("b{}", i));
      const std::uint32_t k = rng() % 2 ? 3 : 1;
      layers += fmt::format(R"({{"name": "b{}", "type": "conv", "co": {}, "k": {}, "padding": {}, "input": "input"}},)",
                            i, 1 + rng() % 40, k, k / 2);
    }
    const std::string config = configs[std::size_t(trial) % configs.size()];
    INFO(fmt::format("trial {}: {}x{}x{} batch {}, parts {}, config {}", trial, h, w, c, batch,
                     fmt::join(names, " "), config));
    const std::string workload = dir + fmt::format("/cat{}.json", trial);
    write_text(workload, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": {}, "c": {}}}, "layers": [
      {} {{"name": "cat", "type": "concat", "inputs": ["{}"]}},
      {{"name": "post", "type": "conv", "co": 8, "k": 1}}]}})",
                                     batch, 100 + trial, h, w, c, layers, fmt::join(names, "\", \"")));
    const std::string out = dir + fmt::format("/out{}", trial);
    const auto r = run_npusim({"run", "--quiet", "--functional", "--workload", workload, "--config", config, "--out", out});
    INFO(r.output);
    REQUIRE(r.status == 0);  // the hazard checker stays quiet too
    auto t = [&](const std::string& name) { return load(out + "/tensors/" + name + ".npy"); };
    std::vector<Tensor> inputs;
    for (const auto& name : names) inputs.push_back(t(name));
    const Tensor want = concatenated(inputs), got = t("cat");
    CHECK(got.n == batch);
    CHECK(got.h == h);
    CHECK(got.w == w);
    CHECK(got.c == want.c);
    CHECK(got.v == want.v);
    // Its reader sees the whole concatenation (it waits for every core's stores).
    CHECK(t("post").v == conv(want, t("post.weights"), 8, 1, 1, 1, 1, {0, 0, 0, 0}, false).v);
    CHECK(std::count(got.v.begin(), got.v.end(), got.v.front()) < std::ptrdiff_t(got.v.size()));
  }
}

TEST_CASE("compiler: concat only moves data: its row counts read and write DRAM traffic", "[compiler][concat][e2e]") {
  const std::string dir = scratch_dir("concat-timing");
  write_text(dir + "/w.json", R"({"batch": 2, "input": {"h": 28, "w": 28, "c": 16}, "layers": [
    {"name": "a", "type": "conv", "co": 24, "k": 3, "padding": 1, "input": "input"},
    {"name": "cat", "type": "concat", "inputs": ["a", "input", "a"]}]})");
  for (const char* config : {"configs/default.json", "configs/smp-2x2.json"}) {
    INFO(config);
    const auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--config", source_path(config),
                               "--out", dir + "/run"});
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
    const auto& row = report.at("workload").at("rows").at(1);
    CHECK(row.at("kind") == "concat");
    CHECK(row.at("engine") == "dma");
    CHECK(row.at("macs") == 0);
    CHECK(row.at("cycles").get<std::uint64_t>() > 0);
    const std::uint64_t output = 2 * 28 * 28 * (24 + 16 + 24);
    CHECK(row.at("dram_bytes").get<std::uint64_t>() >= 2 * output);
    CHECK(row.at("compulsory_dram_bytes") == 2 * output);
  }
  // A network of one concat runs no compute instruction: only the load and store DMAs work.
  write_text(dir + "/only.json", R"({"input": {"h": 9, "w": 7, "c": 5}, "layers": [
    {"name": "cat", "type": "concat", "inputs": ["input", "input"]}]})");
  const auto r = run_npusim({"run", "--quiet", "--workload", dir + "/only.json", "--out", dir + "/only"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/only/report.json"));
  std::uint64_t moves = 0;
  for (const auto& e : report.at("engines")) {
    const std::string kind = e.at("kind");
    if (kind == "load" || kind == "store")
      moves += e.at("instructions").get<std::uint64_t>();
    else
      CHECK(e.at("instructions") == 0);
  }
  CHECK(moves >= 4);  // two inputs, each loaded and stored
}

TEST_CASE("compiler: bad concat layers name the file, the layer and the field", "[compiler][concat]") {
  CHECK_THAT(reader_error(R"({"name":"p","type":"pool","k":2,"stride":2},
                              {"name":"c","type":"concat","inputs":["p","input"]})"),
             Catch::Contains("w.json: layers[1] (c), field 'inputs': 'input' is 8x8 (h x w) but 'p' is 4x4"));
  CHECK_THAT(reader_error(R"({"name":"c","type":"concat","inputs":["input"]})"),
             Catch::Contains("layers[0] (c), field 'inputs': must be a list of two or more tensor names"));
  CHECK_THAT(reader_error(R"({"name":"c","type":"concat"})"),
             Catch::Contains("field 'inputs': concat needs \"inputs\": [a, b, ...]"));
  CHECK_THAT(reader_error(R"({"name":"c","type":"concat","inputs":["input","x"]})"),
             Catch::Contains("field 'inputs': 'x' is neither 'input' nor an earlier layer"));
  CHECK_THAT(reader_error(R"({"name":"c","type":"concat","inputs":["input","input"],"relu":true})"),
             Catch::Contains("layers[0] (c), field 'relu': is not fused into a concat"));
  CHECK_THAT(reader_error(R"({"name":"c","type":"concat","inputs":["input","input"],"co":3})"),
             Catch::Contains("field 'co': unknown field"));
  const npusim::Workload w = npusim::parse_workload_json(
      R"({"input":{"h":8,"w":8,"c":4},"layers":[{"name":"a","type":"conv","co":8,"k":1},
         {"name":"c","type":"concat","inputs":["a","input","a"]}]})", "w.json");
  CHECK(w.layers[1].kind == npusim::LayerKind::Concat);
  CHECK(w.layers[1].out == npusim::MapShape{8, 8, 20});
  CHECK(w.layers[1].concat_channels == std::vector<std::uint32_t>{8, 4, 8});
  CHECK(w.layers[1].macs() == 0);
  // Through the binary: exit status 2 and the message.
  const std::string dir = scratch_dir("concat-bad");
  write_text(dir + "/w.json", R"({"input":{"h":8,"w":8,"c":4},"layers":[
    {"name":"p","type":"pool","k":2,"stride":2}, {"name":"c","type":"concat","inputs":["p","input"]}]})");
  const auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--out", dir + "/run"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("w.json: layers[1] (c), field 'inputs'"));
}
