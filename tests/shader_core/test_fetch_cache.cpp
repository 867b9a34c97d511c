// The fetch-path cache of state machine 206 (seed003 ¶25, ¶[0047], ¶[0050], ¶[0051];
// issue 47): on the seed's 5x5 example cut into one-row tiles the halo rows are cache
// hits and memory delivers only the image once (the "about 30 %"); preloads move no
// extra bytes; auto-fetch saves the program's fetch slots; and none of it changes a bit
// of the results.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/ChainReference.h"
#include "compiler/FunctionalRun.h"
#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"

using Catch::Matchers::Contains;

namespace {

// gpu-shader.json with one register group of 256 bytes, unrolled tiles (so a tile of
// the seed's layer is one output row: 3 positions x 27 = 81 bytes) and a cache of 1-byte
// lines (so hits and misses count bytes), with `fetch_keys` in /core/fetch_ml. gpu-shader.json
// turns preload and auto_fetch on, so each case names the modes it means.
std::string tiny_shader(const std::string& dir, const std::string& fetch_keys) {
  const std::string path = dir + "/chip.json";
  write_text(path, fmt::format(R"({{"extends":"{}","core":{{"register_file":{{"capacity_bytes":256}},)"
                               R"("shader":{{"register_groups":1,"unroll_site":"fetch_to_rf"}},)"
                               R"("fetch_ml":{{"cache_bytes":1024,"cache_line_bytes":1,"cache_ways":8{}}}}}}})",
                               source_path("configs/gpu-shader.json"), fetch_keys));
  return path;
}

// The seed's layer (¶[0046]): a 5x5 image of 3 components, two 3x3 filters; `h` rows.
std::string seed_layer(const std::string& dir, std::uint32_t h) {
  write_text(dir + "/w.json", fmt::format(R"({{"input":{{"h":{},"w":5,"c":3}},"layers":[)"
                                          R"({{"name":"conv","type":"conv","co":2,"k":3}}]}})",
                                          h));
  return dir + "/w.json";
}

struct Run {
  nlohmann::json row, fetch;
};

// Runs it in functional mode and checks the output against the reference.
Run run_seed_layer(const std::string& name, std::uint32_t h, const std::string& fetch_keys) {
  const std::string dir = scratch_dir("fetch-cache-" + name);
  const std::string t = npusim::layer_reference::run_functional(seed_layer(dir, h), tiny_shader(dir, fetch_keys),
                                                                 dir + "/run");
  using namespace npusim::layer_reference;
  CHECK(load(t + "conv.npy").v == conv(load(t + "input.npy"), load(t + "conv.weights.npy"), 2, 3, 3, 1, 1,
                                       {0, 0, 0, 0}, false).v);
  const auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
  return {report.at("workload").at("rows").at(0), report.at("stats").at("core0.fetch_ml")};
}

}  // namespace

TEST_CASE("seed003 ¶[0047] with the fetch-path cache: the halo rows of one-row tiles are hits, memory gives the "
          "image once (75 of im2col's 243 bytes)",
          "[shader][seed003][fetch_cache][e2e]") {
  const Run r = run_seed_layer("halo", 5, R"(,"preload":false,"auto_fetch":false)");
  const auto& shader = r.row.at("shader");
  REQUIRE(shader.at("tiles") == 3);  // output rows 0, 1, 2: image rows 0-2, 1-3, 2-4
  // Rows 1 and 2 come again for the second tile, rows 2 and 3 for the third: 4 rows x 15 bytes.
  CHECK(shader.at("cache").at("hits") == 60);
  CHECK(shader.at("cache").at("bytes_from_cache") == 60);
  CHECK(shader.at("cache").at("bytes_saved") == 60);
  // Misses: the 75 bytes of the image, each once, and the 54 filter bytes.
  CHECK(shader.at("cache").at("misses") == 75 + 54);
  CHECK(r.fetch.at("ifm_bytes") == 135);
  CHECK(r.fetch.at("memory_bytes") == 75 + 54);
  CHECK(r.fetch.at("naive_im2col_bytes") == 3 * 81);
  CHECK(75.0 / 243.0 == Approx(0.3086).margin(1e-4));  // the seed's "about 30 %" (0.3086 in spec/seed003.md)
  CHECK(shader.at("instruction_slots") == r.row.at("instructions"));
}

TEST_CASE("fetch-path cache: preloading each next tile's rows moves no byte more from memory", "[shader][fetch_cache][e2e]") {
  const Run off = run_seed_layer("no-preload", 5, R"(,"preload":false,"auto_fetch":false)");
  const Run on = run_seed_layer("preload", 5, R"(,"preload":true,"auto_fetch":false)");
  const auto& with = on.row.at("shader").at("cache");
  CHECK(with.at("preloads") == 2);
  CHECK(on.fetch.at("memory_bytes") == off.fetch.at("memory_bytes"));
  // The preloads bring rows 3 and 4 (15 bytes each; rows 1 and 2 were already there), so the
  // second and third tiles' fetches hit on every row.
  CHECK(with.at("preloaded_bytes") == 30);
  CHECK(with.at("misses") == 54 + 45);
  CHECK(with.at("hits") == 90);
  CHECK(with.at("bytes_saved") == off.row.at("shader").at("cache").at("bytes_saved"));
}

TEST_CASE("fetch-path cache: auto-fetch saves the program's fetch slots (¶[0051]), ten one-row tiles",
          "[shader][fetch_cache][auto_fetch][e2e]") {
  // 12 rows: 10 output rows, one tile each. Without auto-fetch the program issues 17 ml_set,
  // 1 weight fetch (one group keeps it), 10 image fetches, 10 multiplies and 10 returns: 48.
  const Run program = run_seed_layer("program-fetches", 12, R"(,"preload":false,"auto_fetch":false)");
  CHECK(program.row.at("instructions") == 48);
  CHECK(program.row.at("shader").at("instruction_slots") == 48);
  // With it: 3 more ml_set (the mode and the walk's tile sizes), the first tile's two fetches,
  // and the state machine launches the other 9 image fetches itself: 42 slots.
  const Run automatic = run_seed_layer("auto-fetches", 12, R"(,"preload":false,"auto_fetch":true)");
  CHECK(automatic.row.at("instructions") == 51);
  CHECK(automatic.row.at("shader").at("auto_fetches") == 9);
  CHECK(automatic.row.at("shader").at("instruction_slots") == 42);
  CHECK(automatic.fetch.at("auto_fetches") == 9);
}

// [process-leak]: the refusal comes from inside the state machine's SystemC process, so the
// other processes' coroutine stacks are never unwound and LeakSanitizer counts what they
// hold (an instruction in the dispatcher's hands); left out under the sanitizers until the
// check moves to the trace reader (tests/CMakeLists.txt).
TEST_CASE("fetch-path cache: an auto_fetch register on a state machine without auto-fetch exits 2 naming the key",
          "[shader][fetch_cache][auto_fetch][e2e][process-leak]") {
  const std::string dir = scratch_dir("fetch-cache-no-auto");
  const std::string chip = tiny_shader(dir, R"(,"auto_fetch":true)");
  auto compiled = run_npusim({"compile", "--workload", seed_layer(dir, 12), "--config", chip, "-o", dir + "/t.jsonl"});
  INFO(compiled.output);
  REQUIRE(compiled.status == 0);
  const std::string without = tiny_shader(dir, R"(,"auto_fetch":false)");
  auto r = run_npusim({"run", "--quiet", "--trace", dir + "/t.jsonl", "--config", without, "--out", dir + "/run"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("/core/fetch_ml/auto_fetch"));
}

TEST_CASE("fetch-path cache: a chain of three layers on shader cores equals the reference with the cache, preload "
          "and auto-fetch on",
          "[shader][fetch_cache][compiler][e2e]") {
  npusim::layer_reference::check_conv_chain(
      "shader-cache",
      fmt::format(R"({{"extends":"{}","chip":{{"clusters":2,"cores_per_cluster":2}},"core":{{)"
                  R"("register_file":{{"capacity_bytes":8192}},"shader":{{"lanes":16}},)"
                  R"("fetch_ml":{{"cache_bytes":4096,"cache_line_bytes":64,"cache_ways":4,"auto_fetch":true}}}}}})",
                  source_path("configs/gpu-shader.json")),
      "", 52);
}
