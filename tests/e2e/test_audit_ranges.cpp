// Regressions from the issue-14 input audit: numbers that were wrapped, accepted
// as nonsense or turned into internal errors must each be exit 2 with one message
// naming the file, the place and the allowed values.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "e2e/NpusimProcess.h"
#include "apps/frontend/WorkloadReader.h"

namespace fs = std::filesystem;

namespace {

void expect_rejected(const std::vector<std::string>& args, const std::vector<std::string>& parts) {
  const NpusimResult r = run_npusim(args);
  INFO(r.output);
  CHECK(r.status == 2);
  for (const auto& part : parts) CHECK(r.output.find(part) != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

std::string conv_workload(const std::string& dir, const std::string& extra_keys) {
  const std::string path = dir + "/w.json";
  write_text(path, R"({"input": {"h": 12, "w": 12, "c": 4},
 "layers": [{"name": "wide", "type": "conv", "co": 8, "k": 3)" + extra_keys + "}]}\n");
  return path;
}

}  // namespace

TEST_CASE("audit: conv padding larger than the input is exit 2 naming the layer and key", "[bad-input][audit]") {
  const std::string dir = scratch_dir("audit-padding");
  // 40 rows of padding on a 12-row map: most output rows would see padding only.
  const std::string w = conv_workload(dir, R"(, "padding": 40)");
  for (const char* command : {"run", "compile"}) {
    const std::string out = dir + "/" + command + "-out";
    expect_rejected({command, "--workload", w, command == std::string("run") ? "--out" : "-o", out},
                    {"w.json", "layers[0] (wide)", "padding", "kernel"});
    CHECK_FALSE(fs::exists(out));
  }
  // One side too many is as wrong as all four.
  expect_rejected({"run", "--workload", conv_workload(dir, R"(, "padding": [0, 3, 0, 0])"), "--out", dir + "/one"},
                  {"layers[0] (wide)", "padding"});
  // The most a 3-wide kernel can use still compiles and runs: 12 + 2 + 2 - 3 + 1 = 14 rows out.
  const NpusimResult ok = run_npusim({"run", "--quiet", "--workload", conv_workload(dir, R"(, "padding": 2)"),
                                      "--out", dir + "/ok"});
  INFO(ok.output);
  CHECK(ok.status == 0);
}

TEST_CASE("audit: an empty core.engines list is exit 2 at validate and run, naming what is required",
          "[bad-input][audit]") {
  const std::string dir = scratch_dir("audit-engines");
  write_text(dir + "/c.json", R"({"core": {"engines": []}})");
  expect_rejected({"validate", dir + "/c.json"}, {"c.json", "/core/engines", "'load'"});
  expect_rejected({"run", "--config", dir + "/c.json", "--trace", source_path("traces/examples/relu.jsonl"), "--out",
                   dir + "/run"},
                  {"c.json", "/core/engines", "'load'"});
  CHECK_FALSE(fs::exists(dir + "/run"));
}

TEST_CASE("audit: chip.dram.bytes_per_cycle 1e-300 is exit 2 naming the key and its range", "[bad-input][audit]") {
  const std::string dir = scratch_dir("audit-bandwidth");
  write_text(dir + "/c.json", R"({"chip": {"dram": {"bytes_per_cycle": 1e-300}}})");
  expect_rejected({"validate", dir + "/c.json"}, {"c.json", "/chip/dram/bytes_per_cycle", "out of range"});
  expect_rejected({"run", "--config", dir + "/c.json", "--trace", source_path("traces/examples/relu.jsonl"), "--out",
                   dir + "/run"},
                  {"/chip/dram/bytes_per_cycle"});
  // The documented lower bound itself is a usable machine.
  write_text(dir + "/slow.json", R"({"chip": {"dram": {"bytes_per_cycle": 0.001}}})");
  CHECK(run_npusim({"validate", dir + "/slow.json"}).status == 0);
}

TEST_CASE("audit: a shift of 4294967301 is exit 2, not wrapped to 5", "[bad-input][audit]") {
  const std::string dir = scratch_dir("audit-shift");
  // 4294967301 = 2^32 + 5: read as a uint32_t it used to become a valid shift of 5.
  expect_rejected({"run", "--workload", conv_workload(dir, R"(, "padding": 1, "shift": 4294967301)"), "--out",
                   dir + "/run"},
                  {"w.json", "layers[0] (wide)", "shift", "0 to 31"});
  expect_rejected({"run", "--workload", conv_workload(dir, R"(, "padding": 1, "shift": 32)"), "--out", dir + "/run"},
                  {"shift", "0 to 31"});
  const npusim::Workload w = npusim::parse_workload_json(
      R"({"input": {"h": 4, "w": 4, "c": 4}, "layers": [{"type": "conv", "co": 4, "k": 1, "shift": 31}]})", "w.json");
  CHECK(w.layers.at(0).shift == 31);
}

TEST_CASE("audit: trace window params beyond 32 bits are exit 2, not wrapped", "[bad-input][audit]") {
  const std::string dir = scratch_dir("audit-stride");
  // A stride of 2^32 + 1 makes one output row, and the line was accepted as such;
  // the vector unit then read the stride as 1 and wrote four rows into it.
  write_text(dir + "/t.jsonl",
             "{\"format\":\"npusim-trace\",\"version\":1}\n"
             "{\"id\":0,\"op\":\"pool\",\"inputs\":[{\"space\":\"nram\",\"offset\":0,\"shape\":[1,4,4,16],"
             "\"dtype\":\"int8\"}],\"outputs\":[{\"space\":\"nram\",\"offset\":4096,\"shape\":[1,1,4,16],"
             "\"dtype\":\"int8\"}],\"params\":{\"kernel\":[1,1],\"stride\":[4294967297,1]}}\n");
  expect_rejected({"run", "--trace", dir + "/t.jsonl", "--out", dir + "/run"},
                  {"t.jsonl", "line 2", "params.stride", "at most 16777216"});
}
