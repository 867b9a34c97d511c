#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;

namespace {

// Every broken input must end with exit status 2, one message that names the
// file and the place, and no run directory left behind.
void expect_rejected(const std::vector<std::string>& args, const std::string& out_dir,
                     const std::vector<std::string>& message_parts) {
  auto r = run_npusim(args);
  INFO(r.output);
  CHECK(r.status == 2);
  for (const auto& part : message_parts) CHECK(r.output.find(part) != std::string::npos);
  CHECK_FALSE(fs::exists(out_dir));
  for (const auto& entry : fs::directory_iterator(fs::path(out_dir).parent_path()))
    CHECK(entry.path().filename().string().find("partial") == std::string::npos);
}

std::string relu_trace_with(const std::string& dir, const std::string& second_line) {
  std::string path = dir + "/t.jsonl";
  write_text(path,
             "{\"format\":\"npusim-trace\",\"version\":1}\n"
             "{\"id\":0,\"op\":\"load\",\"inputs\":[{\"space\":\"dram\",\"offset\":0,\"shape\":[64],\"dtype\":\"int8\"}],"
             "\"outputs\":[{\"space\":\"nram\",\"offset\":0,\"shape\":[64],\"dtype\":\"int8\"}]}\n" +
                 second_line + "\n");
  return path;
}

}  // namespace

TEST_CASE("malformed config JSON is rejected with its line", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-config-json");
  write_text(dir + "/c.json", "{\n  \"chip\": {\n    \"clusters\": 2,,\n  }\n}\n");
  expect_rejected({"run", "--config", dir + "/c.json", "--out", dir + "/run"}, dir + "/run", {"c.json", "line 3"});
}

TEST_CASE("a mistyped config key is rejected with a suggestion", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-config-key");
  write_text(dir + "/c.json", R"({"chip": {"clock_mz": 800}})");
  expect_rejected({"run", "--config", dir + "/c.json", "--out", dir + "/run"}, dir + "/run",
                  {"c.json", "/chip/clock_mz", "clock_mhz"});
}

TEST_CASE("an out-of-range config value is rejected", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-config-range");
  write_text(dir + "/c.json", R"({"chip": {"dram": {"channels": 0}}})");
  expect_rejected({"run", "--config", dir + "/c.json", "--out", dir + "/run"}, dir + "/run",
                  {"c.json", "/chip/dram/channels"});
}

TEST_CASE("a trace line with a missing field is rejected", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-trace-field");
  std::string trace = relu_trace_with(dir, R"({"id":1,"inputs":[],"outputs":[]})");
  expect_rejected({"run", "--trace", trace, "--out", dir + "/run"}, dir + "/run", {"t.jsonl", "line 3", "op"});
}

TEST_CASE("an unknown op is rejected", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-trace-op");
  std::string trace = relu_trace_with(dir, R"({"id":1,"op":"rellu","inputs":[],"outputs":[]})");
  expect_rejected({"run", "--trace", trace, "--out", dir + "/run"}, dir + "/run", {"t.jsonl", "line 3", "relu"});
}

TEST_CASE("a dependency on a missing id is rejected", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-trace-dep");
  std::string trace = relu_trace_with(
      dir, R"({"id":2,"op":"relu","inputs":[{"space":"nram","offset":0,"shape":[64],"dtype":"int8"}],)"
           R"("outputs":[{"space":"nram","offset":64,"shape":[64],"dtype":"int8"}],"deps":[1]})");
  expect_rejected({"run", "--trace", trace, "--out", dir + "/run"}, dir + "/run", {"t.jsonl", "line 3", "1"});
}

TEST_CASE("a dependency cycle (forward reference) is rejected", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-trace-cycle");
  std::string trace = relu_trace_with(
      dir, R"({"id":1,"op":"relu","inputs":[{"space":"nram","offset":0,"shape":[64],"dtype":"int8"}],)"
           R"("outputs":[{"space":"nram","offset":64,"shape":[64],"dtype":"int8"}],"deps":[1]})");
  expect_rejected({"run", "--trace", trace, "--out", dir + "/run"}, dir + "/run", {"t.jsonl", "line 3", "cycle"});
}

TEST_CASE("a tensor that overflows NRAM is rejected", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-trace-nram");
  std::string trace = relu_trace_with(
      dir, R"({"id":1,"op":"relu","inputs":[{"space":"nram","offset":0,"shape":[64],"dtype":"int8"}],)"
           R"("outputs":[{"space":"nram","offset":524280,"shape":[64],"dtype":"int8"}],"deps":[0]})");
  expect_rejected({"run", "--trace", trace, "--out", dir + "/run"}, dir + "/run", {"t.jsonl", "line 3", "524288"});
}

TEST_CASE("a truncated .npy input is rejected", "[e2e][bad-input]") {
  std::string dir = scratch_dir("bad-npy");
  std::string npy = read_text(source_path("traces/examples/relu_x.npy"));
  write_text(dir + "/relu_x.npy", npy.substr(0, npy.size() - 100));
  std::string trace = read_text(source_path("traces/examples/relu.jsonl"));
  write_text(dir + "/relu.jsonl", trace);
  expect_rejected({"run", "--functional", "--trace", dir + "/relu.jsonl", "--out", dir + "/run"}, dir + "/run",
                  {"relu_x.npy", "line 1", "shape needs 1024"});
}

TEST_CASE("command-line mistakes exit with status 2", "[e2e][bad-input]") {
  CHECK(run_npusim({"run", "--no-such-flag"}).status == 2);
  CHECK(run_npusim({}).status == 2);
  auto help = run_npusim({"--help"});
  CHECK(help.status == 0);
  CHECK(help.output.find("Examples") != std::string::npos);
}
