// The sparse tensor cluster run as users run it: the example trace gives the dense
// reference result in functional mode and the same cycles in timing mode; bad
// compressed tensors, params and configs exit 2 naming the place and leave nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <cstring>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {


std::string config() { return source_path("configs/sparse.json"); }

// A one-instruction trace convolving a 4x4x1 map with a 2x2 kernel from .npy inputs.
std::string sparse_conv_trace(const std::string& dir, const std::vector<std::int32_t>& ifm_indices) {
  using npusim::DType;
  using npusim::NpyArray;
  auto save = [&](const std::string& name, DType t, std::vector<std::uint8_t> bytes, std::uint64_t n) {
    NpyArray a;
    a.dtype = t;
    a.shape = {n};
    a.data = std::move(bytes);
    npusim::write_npy(dir + "/" + name, a);
  };
  const std::uint64_t n = ifm_indices.size();
  std::vector<std::uint8_t> idx(4 * n);
  std::memcpy(idx.data(), ifm_indices.data(), idx.size());
  save("v.npy", DType::Int8, std::vector<std::uint8_t>(n, 3), n);
  save("i.npy", DType::Int32, idx, n);
  save("wv.npy", DType::Int8, {1}, 1);
  save("wi.npy", DType::Int32, {0, 0, 0, 0}, 1);
  return fmt::format(
      R"({{"format":"npusim-trace","version":1,"inputs":[)"
      R"({{"name":"v","space":"dram","offset":0,"file":"v.npy"}},{{"name":"i","space":"dram","offset":64,"file":"i.npy"}},)"
      R"({{"name":"wv","space":"dram","offset":256,"file":"wv.npy"}},{{"name":"wi","space":"dram","offset":320,"file":"wi.npy"}}]}})"
      "\n"
      R"({{"id":0,"op":"sparse_conv","inputs":[{{"space":"dram","offset":0,"shape":[{0}],"dtype":"int8"}},)"
      R"({{"space":"dram","offset":64,"shape":[{0}],"dtype":"int32"}},{{"space":"dram","offset":256,"shape":[1],"dtype":"int8"}},)"
      R"({{"space":"dram","offset":320,"shape":[1],"dtype":"int32"}}],)"
      R"("outputs":[{{"space":"dram","offset":512,"shape":[3,3,1],"dtype":"int32"}}],)"
      R"("params":{{"ifm_shape":[4,4,1],"kernel":[2,2]}}}})"
      "\n",
      n);
}

NpusimResult run_functional(const std::string& dir, const std::string& trace) {
  write_text(dir + "/t.jsonl", trace);
  return run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--config", config(), "--out",
                     dir + "/run"});
}

}  // namespace

TEST_CASE("sparse cluster: the example trace equals a dense convolution, and timing runs see the same cycles",
          "[sparse][e2e]") {
  const std::string dir = scratch_dir("sparse-example");
  const std::string trace = source_path("traces/examples/sparse-conv.jsonl");
  auto f = run_npusim({"run", "--quiet", "--functional", "--trace", trace, "--config", config(), "--out", dir + "/f"});
  auto t = run_npusim({"run", "--quiet", "--trace", trace, "--config", config(), "--out", dir + "/t"});
  INFO(f.output << t.output);
  REQUIRE(f.status == 0);
  REQUIRE(t.status == 0);
  const auto x = npusim::read_npy(dir + "/f/tensors/image_in.npy");
  const auto w = npusim::read_npy(dir + "/f/tensors/filters_in.npy");
  const auto r = npusim::read_npy(dir + "/f/tensors/result.npy");
  std::uint64_t zeros = 0;
  for (auto b : x.data) zeros += b == 0;
  CHECK(zeros == 205);  // exactly round(0.8 * 256): the binding's "zeros"
  // 8x8x4 image, 3 filters of 3x3x4, pad 1.
  auto X = [&](int y, int xx, int c) -> std::int64_t {
    if (y < 0 || xx < 0 || y >= 8 || xx >= 8) return 0;
    return std::int8_t(x.data[(y * 8 + xx) * 4 + c]);
  };
  for (int oy = 0; oy < 8; ++oy)
    for (int ox = 0; ox < 8; ++ox)
      for (int co = 0; co < 3; ++co) {
        std::int64_t s = 0;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            for (int c = 0; c < 4; ++c) s += X(oy - 1 + a, ox - 1 + b, c) * std::int8_t(w.data[((co * 3 + a) * 3 + b) * 4 + c]);
        std::int32_t got;
        std::memcpy(&got, &r.data[4 * ((oy * 8 + ox) * 3 + co)], 4);
        REQUIRE(got == s);
      }
  const auto fr = nlohmann::json::parse(read_text(dir + "/f/report.json"));
  const auto tr = nlohmann::json::parse(read_text(dir + "/t/report.json"));
  CHECK(fr["sparse_layers"][0]["cycles"] == tr["sparse_layers"][0]["cycles"]);
  CHECK(fr["sparse_layers"][0]["useful_macs"] == tr["sparse_layers"][0]["useful_macs"]);
  CHECK(fr["sparse_layers"][0]["units"].size() > 1);
}

TEST_CASE("sparse cluster: an index out of range or out of order is bad input, named by entry", "[sparse][e2e]") {
  SECTION("out of range") {
    const std::string dir = scratch_dir("sparse-index-range");
    auto r = run_functional(dir, sparse_conv_trace(dir, {0, 5, 16}));
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("line 2") && Contains("inputs[1] entry 2 is 16, outside the dense tensor of 16"));
    CHECK_FALSE(fs::exists(dir + "/run"));
  }
  SECTION("unsorted") {
    const std::string dir = scratch_dir("sparse-index-order");
    auto r = run_functional(dir, sparse_conv_trace(dir, {0, 7, 5}));
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("entry 2 (5) does not follow entry 1 (7)"));
    CHECK_FALSE(fs::exists(dir + "/run"));
  }
  SECTION("a short list ends at -1") {
    const std::string dir = scratch_dir("sparse-index-end");
    auto r = run_functional(dir, sparse_conv_trace(dir, {0, 5, -1, 99}));
    INFO(r.output);
    CHECK(r.status == 0);
  }
}

TEST_CASE("sparse cluster: malformed sparse ops are refused before the run, naming the field", "[sparse][e2e]") {
  const std::string dir = scratch_dir("sparse-bad-ops");
  const std::string good = read_text(source_path("traces/examples/sparse-conv.jsonl"));
  const std::map<std::pair<std::string, std::string>, std::string> cases = {
      {{R"("shape":[256],"dtype":"int32")", R"("shape":[255],"dtype":"int32")"}, "indices for [256] values"},
      {{R"("ifm":0.8)", R"("ifm":1.5)"}, "params.assumed_sparsity.ifm"},
      {{R"("zeros":0.8)", R"("zeros":-0.1)"}, "inputs[0].zeros"},
      {{R"("assumed_zeros":0.5)", R"("assumed_zeros":2)"}, "params.assumed_zeros"},
      {{R"("padding":[1,1,1,1])", R"("padding":[3,1,1,1])"}, "params.padding"},
  };
  for (const auto& [edit, message] : cases) {
    std::string text = good;
    const auto at = text.find(edit.first);
    REQUIRE(at != std::string::npos);
    text.replace(at, edit.first.size(), edit.second);
    write_text(dir + "/t.jsonl", text);
    auto r = run_npusim({"validate", dir + "/t.jsonl", "--config", config()});
    INFO(edit.second << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains(message));
  }
}

TEST_CASE("sparse cluster: a timing run without assumed sparsity says how to fix it", "[sparse][e2e]") {
  const std::string dir = scratch_dir("sparse-no-assumed");
  std::string text = read_text(source_path("traces/examples/sparse-conv.jsonl"));
  const std::string key = R"(,"assumed_sparsity":{"ifm":0.8,"weights":0.5,"seed":1})";
  text.replace(text.find(key), key.size(), "");
  write_text(dir + "/t.jsonl", text);
  auto r = run_npusim({"run", "--quiet", "--trace", dir + "/t.jsonl", "--config", config(), "--out", dir + "/run"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("params.assumed_sparsity") && Contains("--functional"));
  CHECK_FALSE(fs::exists(dir + "/run"));
}

TEST_CASE("sparse cluster: configs that cannot work are refused, naming the key", "[sparse][config]") {
  const std::string dir = scratch_dir("sparse-bad-config");
  const std::map<std::string, std::string> cases = {
      {R"({"min_ports": 24})", "/core/sparse/min_ports"},
      {R"({"multipliers": 64, "min_ports": 32})", "/core/sparse/min_ports"},
      {R"({"multipliers": 0})", "/core/sparse/multipliers"},
      {R"({"unit_kind": "1600"})", "/core/sparse/unit_kind"},
      {R"({"balance_threshold": 1.5})", "/core/sparse/balance_threshold"},
      {R"({"units": 12, "memory_interconnect": "benes"})", "/core/sparse/memory_interconnect"},
      {R"({"memory_interconnect": "mesh"})", "/core/sparse/memory_interconnect"},
      {R"({"submaps_per_unit": 0})", "/core/sparse/submaps_per_unit"},
      {R"({"sparsity_measure": "weights"})", "/core/sparse/sparsity_measure"},
  };
  for (const auto& [section, key] : cases) {
    write_text(dir + "/c.json", "{\"extends\": \"" + config() + "\", \"core\": {\"sparse\": " + section + "}}");
    auto r = run_npusim({"validate", dir + "/c.json"});
    INFO(section << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains(key));
  }
}

// Issue 28: sparse_layers holds one row per distinct layer, not per instruction. Four runs of a
// layer give the figures of one run four times over (the data decide products, rounds and busy
// cycles; only cycles to the last store may differ with DRAM contention), and its partition.
TEST_CASE("sparse cluster: repeated sparse_conv layers share one report row with their totals",
          "[sparse][e2e][heavy]") {
  const std::string dir = scratch_dir("sparse-rows");
  auto layer_row = [&](int instructions) {
    const std::string trace = dir + "/t" + std::to_string(instructions) + ".jsonl";
    const std::string make = "python3 " + source_path("scripts/make-long-trace.py") + " " +
                             std::to_string(instructions) + " " + trace + " --sparse";
    REQUIRE(std::system(make.c_str()) == 0);
    const std::string out = dir + "/run" + std::to_string(instructions);
    auto r = run_npusim({"run", "--quiet", "--config", config(), "--trace", trace, "--out", out});
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto rows = nlohmann::json::parse(read_text(out + "/report.json")).at("sparse_layers");
    REQUIRE(rows.size() == 1);
    return rows.at(0);
  };
  const nlohmann::json one = layer_row(1), four = layer_row(4);
  CHECK(one.at("instructions") == 1);
  CHECK(four.at("instructions") == 4);
  CHECK(four.at("id") == 0);
  for (const char* key : {"useful_macs", "dense_macs", "partition_moves"})
    CHECK(four.at(key).get<std::uint64_t>() == 4 * one.at(key).get<std::uint64_t>());
  CHECK(four.at("imbalance") == one.at("imbalance"));
  REQUIRE(four.at("units").size() == one.at("units").size());
  for (std::size_t u = 0; u < one.at("units").size(); ++u) {
    const auto &a = one["units"][u], &b = four["units"][u];
    INFO("unit " << u);
    CHECK(b.at("regions") == a.at("regions"));
    for (const char* key : {"submaps", "input_nonzeros", "rounds", "products", "collisions", "var_windows",
                            "busy_cycles", "buffer_parts"})
      CHECK(b.at(key).get<std::uint64_t>() == 4 * a.at(key).get<std::uint64_t>());
    CHECK(b.at("multiplier_utilization").get<double>() == Approx(a.at("multiplier_utilization").get<double>()));
  }
}
