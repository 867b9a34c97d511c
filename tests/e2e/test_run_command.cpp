#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace fs = std::filesystem;

namespace {
const char* kRunFiles[] = {"report.json", "instructions.csv", "timeline.json"};
}

TEST_CASE("the same run twice writes byte-identical files", "[e2e]") {
  std::string dir = scratch_dir("determinism");
  for (const char* name : {"a", "b"}) {
    auto r = run_npusim({"run", "--quiet", "--functional", "--trace", source_path("traces/examples/relu.jsonl"),
                         "--out", dir + "/" + name});
    REQUIRE(r.status == 0);
  }
  for (const char* file : kRunFiles) {
    INFO(file);
    std::string a = read_text(dir + "/a/" + file);
    CHECK(!a.empty());
    CHECK(a == read_text(dir + "/b/" + file));
  }
  CHECK(read_text(dir + "/a/tensors/y.npy") == read_text(dir + "/b/tensors/y.npy"));
}

TEST_CASE("functional LOAD-RELU-STORE output equals relu of the input", "[e2e]") {
  std::string dir = scratch_dir("relu");
  auto r = run_npusim({"run", "--quiet", "--functional", "--trace", source_path("traces/examples/relu.jsonl"),
                       "--out", dir + "/run"});
  REQUIRE(r.status == 0);
  npusim::NpyArray x = npusim::read_npy(source_path("traces/examples/relu_x.npy"));
  npusim::NpyArray y = npusim::read_npy(dir + "/run/tensors/y.npy");
  REQUIRE(y.shape == x.shape);
  REQUIRE(y.data.size() == x.data.size());
  std::size_t negatives = 0;
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    auto in = static_cast<std::int8_t>(x.data[i]);
    negatives += in < 0;
    REQUIRE(static_cast<std::int8_t>(y.data[i]) == (in < 0 ? 0 : in));
  }
  CHECK(negatives > 0);  // the input really exercises the clamp
}

TEST_CASE("pitched loads and stores move channel blocks of an NHWC map", "[e2e]") {
  std::string dir = scratch_dir("channel-swap");
  auto r = run_npusim({"run", "--quiet", "--functional", "--trace", source_path("traces/examples/channel-swap.jsonl"),
                       "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  npusim::NpyArray x = npusim::read_npy(dir + "/run/tensors/x.npy");
  npusim::NpyArray y = npusim::read_npy(dir + "/run/tensors/y.npy");
  REQUIRE(x.shape == std::vector<std::uint64_t>{1, 8, 8, 16});
  REQUIRE(y.shape == x.shape);
  // y[..., 0:8] = relu(x[..., 8:16]) and y[..., 8:16] = x[..., 0:8], position by position.
  std::size_t negatives = 0;
  for (std::size_t p = 0; p < 64; ++p)
    for (std::size_t c = 0; c < 8; ++c) {
      const auto lo = static_cast<std::int8_t>(x.data[p * 16 + c]), hi = static_cast<std::int8_t>(x.data[p * 16 + 8 + c]);
      negatives += hi < 0;
      REQUIRE(static_cast<std::int8_t>(y.data[p * 16 + c]) == (hi < 0 ? 0 : hi));
      REQUIRE(static_cast<std::int8_t>(y.data[p * 16 + 8 + c]) == lo);
    }
  CHECK(negatives > 0);
}

TEST_CASE("a pitched load of one channel block ignores stores to the blocks between its rows", "[e2e]") {
  // Cores 0 and 2 each write 8 of y's 16 channels; core 1 reads channels 0..7 and
  // depends only on core 0's store. Its rows' gaps are core 2's bytes, which it never reads.
  std::string dir = scratch_dir("interleaved-blocks");
  auto r = run_npusim({"run", "--quiet", "--functional", "--config", source_path("configs/smp-2x2.json"), "--trace",
                       source_path("tests/e2e/interleaved-channel-blocks.jsonl"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  npusim::NpyArray x = npusim::read_npy(dir + "/run/tensors/x.npy");
  npusim::NpyArray y = npusim::read_npy(dir + "/run/tensors/y.npy");
  REQUIRE(y.data == x.data);  // both halves landed in place
}

TEST_CASE("report totals are consistent with the instruction rows", "[e2e]") {
  std::string dir = scratch_dir("report");
  auto r = run_npusim({"run", "--quiet", "--trace", source_path("traces/examples/relu.jsonl"), "--out", dir + "/run"});
  REQUIRE(r.status == 0);
  auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
  auto rows = report.at("instruction_rows");
  REQUIRE(rows.size() == 3);
  std::uint64_t last_end = 0;
  for (const auto& row : rows) {
    CHECK(row.at("start").get<std::uint64_t>() >= row.at("dispatch").get<std::uint64_t>());
    CHECK(row.at("end").get<std::uint64_t>() > row.at("start").get<std::uint64_t>());
    last_end = std::max(last_end, row.at("end").get<std::uint64_t>());
  }
  CHECK(report.at("total_cycles").get<std::uint64_t>() == last_end);
  // The chain is serial: each instruction starts no earlier than its producer ends.
  CHECK(rows[1].at("start").get<std::uint64_t>() >= rows[0].at("end").get<std::uint64_t>());
  CHECK(rows[2].at("start").get<std::uint64_t>() >= rows[1].at("end").get<std::uint64_t>());
  for (const auto& engine : report.at("engines")) {
    std::uint64_t sum = engine.at("busy_cycles").get<std::uint64_t>() + engine.at("stall_cycles").get<std::uint64_t>() +
                        engine.at("idle_cycles").get<std::uint64_t>();
    CHECK(sum == last_end);
  }
}

TEST_CASE("validate accepts every bundled config and example trace", "[e2e][heavy]") {
  for (const auto& entry : fs::directory_iterator(source_path("configs"))) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path());
    auto r = run_npusim({"validate", entry.path().string()});
    CHECK(r.status == 0);
    CHECK(nlohmann::json::parse(r.output).contains("chip"));
  }
  for (const auto& entry : fs::directory_iterator(source_path("traces/examples"))) {
    if (entry.path().extension() != ".jsonl") continue;
    INFO(entry.path());
    // The shader-core examples need a chip with a register file, the sparse ones a sparse
    // cluster (traces/examples/README.md).
    const std::string file = entry.path().filename().string();
    const bool shader = file.rfind("shader-", 0) == 0, sparse = file.rfind("sparse-", 0) == 0;
    const std::string config = shader   ? "configs/gpu-shader.json"
                               : sparse ? "configs/sparse.json"
                                        : "configs/smp-2x2-cache.json";
    auto r = run_npusim({"validate", entry.path().string(), "--config", source_path(config)});
    CHECK(r.status == 0);
  }
}
