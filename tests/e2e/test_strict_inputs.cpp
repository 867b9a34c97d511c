#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;

// Duplicate keys and runaway nesting, once per kind of JSON input, through the
// real binary: exit 2, one message naming the file and place, nothing written.

namespace {

void expect_rejected(const std::vector<std::string>& args, const std::string& out,
                     const std::vector<std::string>& parts) {
  const NpusimResult r = run_npusim(args);
  INFO(r.output);
  CHECK(r.status == 2);
  for (const auto& part : parts) CHECK(r.output.find(part) != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(out));
}

const char* const kRelu =
    "{\"format\":\"npusim-trace\",\"version\":1}\n"
    "{\"id\":0,\"op\":\"load\",\"inputs\":[{\"space\":\"dram\",\"offset\":0,\"shape\":[64],\"dtype\":\"int8\"}],"
    "\"outputs\":[{\"space\":\"nram\",\"offset\":0,\"shape\":[64],\"dtype\":\"int8\"}]}\n";

std::string nested(std::size_t depth, const std::string& open, const std::string& inner, const std::string& close) {
  std::string s;
  for (std::size_t i = 0; i < depth; ++i) s += open;
  s += inner;
  for (std::size_t i = 0; i < depth; ++i) s += close;
  return s;
}

}  // namespace

TEST_CASE("duplicate keys: a config with two \"slaves\" names both lines", "[bad-input][json]") {
  const std::string dir = scratch_dir("dup-config");
  write_text(dir + "/c.json",
             "{\n  \"extends\": \"default.json\",\n  \"core\": {\"matrix\": {\n    \"slaves\": 4,\n    \"slaves\": 8\n  }}\n}\n");
  fs::copy_file(source_path("configs/default.json"), dir + "/default.json");
  expect_rejected({"run", "--config", dir + "/c.json", "--trace", source_path("traces/examples/relu.jsonl"), "--out",
                   dir + "/run"},
                  dir + "/run", {"c.json: line 5", "\"slaves\" given twice", "/core/matrix", "first at line 4"});
  expect_rejected({"validate", dir + "/c.json"}, dir + "/run", {"c.json: line 5"});
}

TEST_CASE("duplicate keys: a workload layer with two \"co\"", "[bad-input][json]") {
  const std::string dir = scratch_dir("dup-workload");
  write_text(dir + "/w.json",
             "{\"input\": {\"h\": 8, \"w\": 8, \"c\": 4},\n"
             " \"layers\": [{\"name\": \"c1\", \"type\": \"conv\", \"k\": 3,\n   \"co\": 8, \"co\": 16}]}\n");
  expect_rejected({"run", "--workload", dir + "/w.json", "--out", dir + "/run"}, dir + "/run",
                  {"w.json: line 3", "\"co\" given twice", "/layers/0"});
  expect_rejected({"compile", "--workload", dir + "/w.json", "-o", dir + "/t.jsonl"}, dir + "/t.jsonl",
                  {"w.json: line 3"});
}

TEST_CASE("duplicate keys: a trace line with two \"op\"", "[bad-input][json]") {
  const std::string dir = scratch_dir("dup-trace");
  write_text(dir + "/t.jsonl", std::string(kRelu) + "{\"id\":1,\"op\":\"relu\",\"op\":\"load\",\"deps\":[0]}\n");
  expect_rejected({"run", "--trace", dir + "/t.jsonl", "--out", dir + "/run"}, dir + "/run",
                  {"t.jsonl: line 3", "\"op\" given twice", "first at line 3"});
}

TEST_CASE("duplicate keys: a sweep spec with two \"axes\"", "[bad-input][json]") {
  const std::string dir = scratch_dir("dup-sweep");
  write_text(dir + "/s.json", "{\"config\": \"" + source_path("configs/default.json") + "\",\n \"workload\": \"" +
                                  source_path("traces/workloads/tiny.json") + "\",\n \"axes\": [],\n \"axes\": []}\n");
  expect_rejected({"sweep", dir + "/s.json", "--out", dir + "/out"}, dir + "/out", {"s.json: line 4", "\"axes\""});
}

TEST_CASE("audit: deeply nested trace fields and configs are exit 2, not a crash", "[bad-input][json]") {
  const std::string dir = scratch_dir("deep");
  // 5,000 levels in a trace field crashed run (TraceFields recursed through dump()).
  write_text(dir + "/t.jsonl", std::string(kRelu) + "{\"id\":1,\"op\":\"relu\",\"offset\":" +
                                   nested(5000, "[", "0", "]") + "}\n");
  expect_rejected({"run", "--trace", dir + "/t.jsonl", "--out", dir + "/run"}, dir + "/run",
                  {"t.jsonl: line 3", "nested more than"});
  // 20,000 levels in a config crashed validate, run and compile (merge_over recursed).
  write_text(dir + "/c.json", nested(20000, "{\"a\":", "1", "}"));
  for (const std::string& command : {"validate", "run", "compile"}) {
    std::vector<std::string> args = {command};
    if (command == "validate") args.push_back(dir + "/c.json");
    else args.insert(args.end(), {"--config", dir + "/c.json", "--workload", source_path("traces/workloads/tiny.json")});
    if (command == "run") args.insert(args.end(), {"--out", dir + "/run"});
    if (command == "compile") args.insert(args.end(), {"-o", dir + "/t2.jsonl"});
    expect_rejected(args, dir + "/run", {"c.json: line 1", "nested more than"});
  }
  CHECK_FALSE(fs::exists(dir + "/t2.jsonl"));
}

TEST_CASE("audit: /dev/zero as a config, an extends target or a trace is exit 2 at once", "[bad-input]") {
  const std::string dir = scratch_dir("devzero");
  expect_rejected({"validate", "/dev/zero"}, dir + "/run", {"/dev/zero", "not an ordinary file"});
  write_text(dir + "/c.json", "{\"extends\": \"/dev/zero\"}");
  expect_rejected({"validate", dir + "/c.json"}, dir + "/run", {"c.json", "not an ordinary file"});
  expect_rejected({"run", "--trace", "/dev/zero", "--out", dir + "/run"}, dir + "/run", {"not an ordinary file"});
}

TEST_CASE("a file name too long for the system is exit 2, not an internal error", "[bad-input]") {
  const std::string dir = scratch_dir("long-name");
  expect_rejected({"run", "--trace", std::string(100000, 'a'), "--out", dir + "/run"}, dir + "/run",
                  {"File name too long"});
  expect_rejected({"validate", dir + "/" + std::string(300, 'b') + ".json"}, dir + "/run", {"File name too long"});
}
