// Whole runs on a banked DRAM preset: the tensors are those of the bandwidth model (the
// DRAM model only changes time), a run repeats byte for byte, and bad presets exit 2.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <utility>
#include <vector>
#include <string>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;

namespace {

std::string run_tiny(const std::string& config, const std::string& out, bool functional) {
  std::vector<std::string> args = {"run", "-q", "-c", source_path(config), "-w",
                                   source_path("traces/workloads/tiny.json"), "-o", out};
  if (functional) args.push_back("--functional");
  const NpusimResult r = run_npusim(args);
  REQUIRE(r.status == 0);
  return read_text(out + "/report.json");
}

}  // namespace

TEST_CASE("banked DRAM: functional tensors equal the bandwidth model's", "[dram][banked][e2e]") {
  const std::string dir = scratch_dir("banked-functional");
  run_tiny("configs/default.json", dir + "/bandwidth", true);
  run_tiny("configs/dram/ddr4-3200.json", dir + "/banked", true);
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(dir + "/bandwidth/tensors")) {
    const std::string name = entry.path().filename().string();
    CHECK(read_text(entry.path().string()) == read_text(dir + "/banked/tensors/" + name));
    ++compared;
  }
  CHECK(compared > 0);
}

TEST_CASE("banked DRAM: a run repeats byte for byte and reports its channel counters", "[dram][banked][e2e]") {
  const std::string dir = scratch_dir("banked-repeat");
  const std::string first = run_tiny("configs/dram/lpddr5-6400.json", dir + "/a", false);
  CHECK(first == run_tiny("configs/dram/lpddr5-6400.json", dir + "/b", false));
  const auto report = nlohmann::json::parse(first);
  const auto& ch0 = report.at("stats").at("dram.ch0");
  CHECK(ch0.at("read_bursts").get<std::uint64_t>() > 0);
  CHECK(ch0.at("row_hits").get<std::uint64_t>() + ch0.at("row_misses").get<std::uint64_t>() +
            ch0.at("row_conflicts").get<std::uint64_t>() ==
        ch0.at("read_bursts").get<std::uint64_t>() + ch0.at("write_bursts").get<std::uint64_t>());
}

TEST_CASE("banked DRAM: a bad timing set exits 2 with one line naming the key", "[dram][banked][e2e]") {
  const std::string dir = scratch_dir("banked-bad");
  write_text(dir + "/bad.json", "{\"extends\": \"" + source_path("configs/dram/ddr4-3200.json") +
                                    "\", \"chip\": {\"dram\": {\"banked\": {\"trc\": 50}}}}");
  const NpusimResult r = run_npusim({"validate", dir + "/bad.json"});
  CHECK(r.status == 2);
  CHECK(r.output.find("/chip/dram/banked/trc") != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

namespace {

// Spans of each "dram.ch<n>" track of a run's timeline, in file order, in microseconds.
std::map<std::string, std::vector<std::pair<double, double>>> dram_tracks(const std::string& run) {
  const auto timeline = nlohmann::json::parse(read_text(run + "/timeline.json"));
  std::map<std::pair<int, int>, std::string> names;
  for (const auto& e : timeline.at("traceEvents"))
    if (e.value("ph", "") == "M" && e.value("name", "") == "thread_name")
      names[{e.value("pid", 0), e.value("tid", 0)}] = e.at("args").at("name").get<std::string>();
  std::map<std::string, std::vector<std::pair<double, double>>> tracks;
  for (const auto& e : timeline.at("traceEvents")) {
    if (e.value("ph", "") != "X") continue;
    const std::string& track = names[{e.value("pid", 0), e.value("tid", 0)}];
    if (track.rfind("dram.ch", 0) == 0)
      tracks[track].push_back({e.at("ts").get<double>(), e.at("ts").get<double>() + e.at("dur").get<double>()});
  }
  return tracks;
}

}  // namespace

TEST_CASE("banked DRAM: each channel's data bus is a timeline track of disjoint spans", "[dram][banked][e2e]") {
  const std::string dir = scratch_dir("banked-timeline");
  run_tiny("configs/dram/ddr4-3200.json", dir + "/banked", false);
  const auto tracks = dram_tracks(dir + "/banked");
  CHECK(tracks.size() == 4);
  for (const auto& [track, spans] : tracks) {
    INFO(track);
    for (std::size_t i = 1; i < spans.size(); ++i) CHECK(spans[i].first >= spans[i - 1].second - 1e-9);
  }
  run_tiny("configs/default.json", dir + "/bandwidth", false);
  CHECK(dram_tracks(dir + "/bandwidth").empty());
}

// DDR4-3200 per channel, by hand (tests/dram/test_banked_timing.cpp): ACT 1872, PRE 2640,
// RD 2832, WR 2592, REF 665280 pJ, background 312 pJ a DRAM clock.
TEST_CASE("banked DRAM: the energy account prices each channel's commands, not its bytes", "[dram][banked][e2e][energy]") {
  const std::string dir = scratch_dir("banked-energy");
  const auto report = nlohmann::json::parse(run_tiny("configs/dram/ddr4-3200.json", dir + "/banked", false));
  double expected = 0;
  for (int c = 0; c < 4; ++c) {
    const auto& ch = report.at("stats").at("dram.ch" + std::to_string(c));
    const auto n = [&](const char* key) { return double(ch.at(key).get<std::uint64_t>()); };
    expected += n("act_commands") * 1872 + n("pre_commands") * 2640 + n("read_bursts") * 2832 + n("write_bursts") * 2592 +
                n("refreshes") * 665280 + n("dram_clocks") * 312;
  }
  double dram = -1;
  for (const auto& cls : report.at("energy").at("classes"))
    if (cls.at("name") == "dram") dram = cls.at("dynamic_pj").get<double>();
  CHECK(expected > 0);
  CHECK(dram == Approx(expected).epsilon(1e-9));
}
