// Compressed outputs chained over sparse layers (compression blocks 1375/1475/1595): random
// conv stacks forced onto the sparse cluster give, bit for bit, what the dense chip computes
// (the Wfold matrix unit, itself checked against a direct convolution in
// tests/e2e/test_conv_functional.cpp); a compressed map whose levels disagree is bad input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

// A stack of `layers` convs: kernels 1-7, strides 1-2, the input's zeros 0-95 %, pruned
// weights; every layer forced onto the sparse cluster when `sparse`.
std::string random_stack(std::mt19937_64& rng, int layers, bool sparse) {
  auto pick = [&](int lo, int hi) { return lo + int(rng() % std::uint64_t(hi - lo + 1)); };
  const int h = pick(9, 24), w = pick(9, 24);
  std::string out = fmt::format(R"({{"name":"stack","batch":1,"seed":{},"input":{{"h":{},"w":{},"c":{}}},"layers":[)",
                                pick(1, 1000), h, w, pick(1, 12));
  for (int i = 0; i < layers; ++i) {
    const int k = pick(1, 7), stride = pick(1, 2);
    out += fmt::format(R"({}{{"name":"c{}","type":"conv","co":{},"k":{},"stride":{},"padding":{},"relu":true,)"
                       R"("activation_sparsity":{},"weight_sparsity":{}{}}})",
                       i ? "," : "", i, pick(1, 20), k, stride, k / 2, pick(0, 95) / 100.0, pick(0, 90) / 100.0,
                       sparse ? R"(,"engine":"sparse")" : "");
  }
  return out + "]}";
}

int count_ops(const std::string& run, const std::string& op) {
  std::istringstream csv(read_text(run + "/instructions.csv"));
  int n = 0;
  for (std::string line; std::getline(csv, line);)
    if (line.find("," + op + ",") != std::string::npos) ++n;
  return n;
}

}  // namespace

TEST_CASE("compressed outputs: random conv stacks chained compressed on the sparse cluster equal the dense chip",
          "[compression_block][sparse][e2e][heavy]") {
  const std::string dir = scratch_dir("compressed-chain");
  // VAR windows up to 13 x 13 = 169 locations (7 x 7 kernels): 256 MIN ports.
  write_text(dir + "/sparse.json", fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"min_ports":256}}}}}})",
                                               source_path("configs/sparse.json")));
  std::mt19937_64 rng(1375);
  for (int trial = 0; trial < 6; ++trial) {
    const std::uint64_t state = rng();
    std::mt19937_64 a(state), b(state);
    const int layers = 3 + trial % 2;
    const std::string tag = std::to_string(trial);
    write_text(dir + "/sparse" + tag + ".json", random_stack(a, layers, true));
    write_text(dir + "/dense" + tag + ".json", random_stack(b, layers, false));
    INFO(read_text(dir + "/sparse" + tag + ".json"));
    auto s = run_npusim({"run", "--quiet", "--functional", "--workload", dir + "/sparse" + tag + ".json", "--config",
                         dir + "/sparse.json", "--out", dir + "/s" + tag});
    INFO(s.output);
    REQUIRE(s.status == 0);
    auto d = run_npusim({"run", "--quiet", "--functional", "--workload", dir + "/dense" + tag + ".json", "--out",
                         dir + "/d" + tag});
    INFO(d.output);
    REQUIRE(d.status == 0);
    // Every layer but the last hands its output on compressed: one compress per band of the
    // first layer's input plus one per layer's weights, never one of a sparse layer's output.
    CHECK(count_ops(dir + "/s" + tag, "sparse_conv_compressed") > 0);
    CHECK(count_ops(dir + "/s" + tag, "sparse_conv") > 0);  // the last layer: a dense output
    const std::string last = fmt::format("c{}.npy", layers - 1);
    REQUIRE(fs::exists(dir + "/s" + tag + "/tensors/" + last));
    CHECK(npusim::read_npy(dir + "/s" + tag + "/tensors/" + last).data ==
          npusim::read_npy(dir + "/d" + tag + "/tensors/" + last).data);
  }
}

// Bands of a compressed map written by one core are read, with their halo, by others.
TEST_CASE("compressed outputs: chained over four cores and two images, equal to the dense 2x2 chip",
          "[compression_block][sparse][e2e][heavy]") {
  const std::string dir = scratch_dir("compressed-cores");
  write_text(dir + "/sparse.json",
             fmt::format(R"({{"extends":"{}","chip":{{"clusters":2,"cores_per_cluster":2}},)"
                         R"("core":{{"sparse":{{"min_ports":256}}}}}})",
                         source_path("configs/sparse.json")));
  auto stack = [](const char* engine) {
    return fmt::format(
        R"({{"name":"mc","batch":2,"seed":5,"input":{{"h":21,"w":17,"c":6}},"layers":[)"
        R"({{"name":"a","type":"conv","co":12,"k":3,"padding":1,"relu":true,"activation_sparsity":0.6,"weight_sparsity":0.5{0}}},)"
        R"({{"name":"b","type":"conv","co":9,"k":5,"stride":2,"padding":2,"relu":true,"weight_sparsity":0.7{0}}},)"
        R"({{"name":"c","type":"conv","co":7,"k":1,"relu":true,"weight_sparsity":0.3{0}}},)"
        R"({{"name":"d","type":"conv","co":5,"k":3,"padding":1,"weight_sparsity":0.3{0}}}]}})",
        engine);
  };
  write_text(dir + "/s.json", stack(R"(,"engine":"sparse")"));
  write_text(dir + "/d.json", stack(""));
  auto s = run_npusim({"run", "--quiet", "--functional", "--workload", dir + "/s.json", "--config", dir + "/sparse.json",
                       "--out", dir + "/s"});
  INFO(s.output);
  REQUIRE(s.status == 0);
  auto d = run_npusim({"run", "--quiet", "--functional", "--workload", dir + "/d.json", "--config",
                       source_path("configs/smp-2x2.json"), "--out", dir + "/d"});
  INFO(d.output);
  REQUIRE(d.status == 0);
  CHECK(count_ops(dir + "/s", "sparse_conv_compressed") == 12);  // layers a-c on each of the 4 cores
  CHECK(npusim::read_npy(dir + "/s/tensors/d.npy").data == npusim::read_npy(dir + "/d/tensors/d.npy").data);
  CHECK_FALSE(fs::exists(dir + "/s/tensors/a.npy"));  // stored compressed: not a dense tensor to dump
}

TEST_CASE("compressed outputs: the compression blocks store fewer bytes than the dense map at high sparsity",
          "[compression_block][sparse][e2e]") {
  const std::string dir = scratch_dir("compressed-bytes");
  write_text(dir + "/w.json",
             R"({"name":"two","input":{"h":28,"w":28,"c":32},"layers":[)"
             R"({"name":"a","type":"conv","co":32,"k":3,"padding":1,"relu":true,"activation_sparsity":0.9,"weight_sparsity":0.9,"engine":"sparse"},)"
             R"({"name":"b","type":"conv","co":32,"k":3,"padding":1,"relu":true,"activation_sparsity":0.9,"weight_sparsity":0.9,"engine":"sparse"}]})");
  auto r = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--config", source_path("configs/sparse.json"),
                       "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
  const auto& rows = report.at("workload").at("rows");
  CHECK(rows.at(0).at("sparse").at("output") == "compressed");
  CHECK(rows.at(1).at("sparse").at("output") == "dense");  // the network's output
  const auto& stats = report.at("stats");
  std::uint64_t compressed = 0, dense = 0;
  for (const auto& [owner, group] : stats.items())
    if (group.is_object() && group.contains("output_compressed_bytes")) {
      compressed += group.at("output_compressed_bytes").get<std::uint64_t>();
      dense += group.at("output_dense_bytes").get<std::uint64_t>();
    }
  CHECK(dense == 28 * 28 * 32);  // layer a's output, stored compressed for b
  CHECK(compressed > 0);
  CHECK(compressed < dense / 3);  // 90 % zeros: about 0.2 x dense (README.md)
}

TEST_CASE("compressed outputs: a compressed map whose levels disagree is exit 2 naming row and level",
          "[compression_block][sparse][e2e]") {
  using npusim::DType;
  const std::string dir = scratch_dir("compressed-levels");
  auto save = [&](const std::string& name, DType t, std::vector<std::uint64_t> shape, std::vector<std::uint8_t> bytes) {
    npusim::NpyArray arr;
    arr.dtype = t;
    arr.shape = std::move(shape);
    arr.data = std::move(bytes);
    npusim::write_npy(dir + "/" + name, arr);
  };
  // A 4x4x1 map: each row is a 4 x 1 plane, a single leaf, so its stream is the plane bit
  // and 4 bitmap bits (pitch 1 byte). Row 1 marks the plane non-zero with an empty bitmap.
  save("v.npy", DType::Int8, {4, 4, 1}, std::vector<std::uint8_t>(16, 3));
  save("i.npy", DType::UInt8, {4, 1}, {0x03, 0x01, 0x00, 0x00});
  save("wv.npy", DType::Int8, {1}, {1});
  save("wi.npy", DType::Int32, {1}, {0, 0, 0, 0});
  write_text(dir + "/t.jsonl",
             R"({"format":"npusim-trace","version":1,"inputs":[)"
             R"({"name":"v","space":"dram","offset":0,"file":"v.npy"},{"name":"i","space":"dram","offset":64,"file":"i.npy"},)"
             R"({"name":"wv","space":"dram","offset":256,"file":"wv.npy"},{"name":"wi","space":"dram","offset":320,"file":"wi.npy"}]})"
             "\n"
             R"({"id":0,"op":"sparse_conv","inputs":[{"space":"dram","offset":0,"shape":[4,4,1],"dtype":"int8"},)"
             R"({"space":"dram","offset":64,"shape":[4,1],"dtype":"uint8"},{"space":"dram","offset":256,"shape":[1],"dtype":"int8"},)"
             R"({"space":"dram","offset":320,"shape":[1],"dtype":"int32"}],)"
             R"("outputs":[{"space":"dram","offset":512,"shape":[3,3,1],"dtype":"int32"}],)"
             R"("params":{"ifm_shape":[4,4,1],"kernel":[2,2]}})"
             "\n");
  auto r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--config",
                       source_path("configs/sparse.json"), "--out", dir + "/run"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("t.jsonl: line 2 (sparse_conv instruction 0): inputs[1] row 1, level 0 portion columns "
                                "0-3 channels 0-0: the level above marks it non-zero but its bitmap is empty"));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("compressed outputs: malformed recursive operands are refused before the run, naming the field",
          "[compression_block][sparse][e2e]") {
  const std::string dir = scratch_dir("compressed-bad-ops");
  write_text(dir + "/w.json",
             R"({"name":"two","input":{"h":8,"w":8,"c":4},"layers":[)"
             R"({"name":"a","type":"conv","co":4,"k":3,"padding":1,"relu":true,"activation_sparsity":0.5,"engine":"sparse"},)"
             R"({"name":"b","type":"conv","co":4,"k":3,"padding":1,"relu":true,"engine":"sparse"}]})");
  auto c = run_npusim({"compile", "-q", "-c", source_path("configs/sparse.json"), "-w", dir + "/w.json", "-o",
                       dir + "/good.jsonl"});
  INFO(c.output);
  REQUIRE(c.status == 0);
  using Edit = void (*)(nlohmann::json&);
  const std::vector<std::pair<Edit, std::string>> cases = {
      {[](nlohmann::json& i) { i["params"].erase("shift"); }, "params.shift"},
      {[](nlohmann::json& i) { i["outputs"][1]["shape"][1] = 1; }, "outputs[1].shape"},
      {[](nlohmann::json& i) { i["outputs"][0]["shape"] = {64, 4}; }, "outputs[0].shape"},
      {[](nlohmann::json& i) { i["params"]["assumed_sparsity"]["ofm"] = 1.5; }, "params.assumed_sparsity.ofm"},
  };
  for (const auto& [edit, field] : cases) {
    std::istringstream in(read_text(dir + "/good.jsonl"));
    std::string out;
    bool edited = false;
    for (std::string line; std::getline(in, line);) {
      auto j = nlohmann::json::parse(line);
      if (!edited && j.value("op", "") == "sparse_conv_compressed") {
        edit(j);
        edited = true;
      }
      out += j.dump() + "\n";
    }
    REQUIRE(edited);
    write_text(dir + "/t.jsonl", out);
    auto r = run_npusim({"validate", dir + "/t.jsonl", "--config", source_path("configs/sparse.json")});
    INFO(field << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains(field));
  }
}
