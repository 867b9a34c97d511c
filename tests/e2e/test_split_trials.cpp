// Issue 42: `--split auto` runs each layer's candidate modes as trials, each a fork of npusim.
// The child inherited the mask that leaves INT, TERM and HUP to the parent's watcher thread
// (which the child does not have): interrupted, the parent exited and the trial ran on, deaf
// to all three. A trial now starts with no signal blocked, dies with its parent however the
// parent ends, and has a time limit.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "e2e/NpusimProcess.h"

namespace {

using Clock = std::chrono::steady_clock;

// A field of /proc/PID/status ("SigBlk", "State"), empty when the process is gone.
std::string status_field(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field + ":", 0) == 0) return line.substr(field.size() + 1);
  return "";
}

// The first child of `parent` seen within `seconds` (a trial), or 0.
pid_t first_child(pid_t parent, double seconds) {
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  const std::string list = "/proc/" + std::to_string(parent) + "/task/" + std::to_string(parent) + "/children";
  while (Clock::now() < until) {
    std::ifstream in(list);
    pid_t child = 0;
    if (in >> child && child > 0) return child;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return 0;
}

// The child's SigBlk once it has had `seconds` to unblock (it is first seen with the mask it
// inherited, before its first statement ran): all zeros as soon as it reads so.
std::string settled_mask(pid_t pid, double seconds) {
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  std::string mask = status_field(pid, "SigBlk");
  while (mask.find_first_not_of("0 \t") != std::string::npos && Clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    mask = status_field(pid, "SigBlk");
  }
  return mask;
}

// Whether `pid` has ended (gone, or a zombie nobody reaps) within `seconds`.
bool ends_within(pid_t pid, double seconds) {
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    const std::string state = status_field(pid, "State");
    if (state.empty() || state.find('Z') != std::string::npos) return true;
    if (Clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// One large conv (its trials each simulate the whole layer, seconds apiece) on 16 cores.
std::string big_layer(const std::string& dir) {
  write_text(dir + "/big.json",
             R"({"name": "big", "batch": 4, "input": {"h": 112, "w": 112, "c": 64},
                 "layers": [{"name": "wide", "type": "conv", "co": 128, "k": 3, "padding": 1}]})");
  return dir + "/big.json";
}

std::vector<std::string> auto_run(const std::string& dir, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"run", "-q", "--config", source_path("configs/smp-4x4.json"), "--workload",
                                   big_layer(dir), "--split", "auto", "--out", dir + "/run"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

struct TrialSeen {
  pid_t pid = 0;
  std::string blocked;  // its SigBlk
  bool ended = false;   // within 2 s of npusim's end
};

// Starts the run, waits for a trial, reads its mask, sends `sig` to npusim and, once npusim
// has ended, watches the trial (here: the trial holds the output pipe, so after run_npusim
// returns it would have ended whatever happened).
TrialSeen interrupt_during_trial(const std::string& dir, int sig, NpusimResult& result) {
  TrialSeen seen;
  NpusimLaunch launch;
  launch.while_running = [&](pid_t npusim) {
    seen.pid = first_child(npusim, 60);
    if (seen.pid == 0) return;
    seen.blocked = settled_mask(seen.pid, 2);
    kill(npusim, sig);
    if (!ends_within(npusim, 10)) return;
    seen.ended = ends_within(seen.pid, 2);
    if (!seen.ended) kill(seen.pid, SIGKILL);  // leave nothing running after a failed check
  };
  result = run_npusim(auto_run(dir), launch);
  return seen;
}

}  // namespace

TEST_CASE("split trials: a trial starts with INT, TERM and HUP unblocked", "[split-trials][e2e]") {
  const std::string dir = scratch_dir("trial-mask");
  NpusimResult r;
  const TrialSeen seen = interrupt_during_trial(dir, SIGTERM, r);
  REQUIRE(seen.pid != 0);
  INFO(r.output);
  // The parent blocks them for its watcher; the child has no watcher, so it must not.
  CHECK(seen.blocked.find_first_not_of("0 \t") == std::string::npos);
}

TEST_CASE("split trials: SIGTERM or SIGINT to npusim ends the running trial too", "[split-trials][e2e]") {
  for (const int sig : {SIGTERM, SIGINT}) {
    INFO("signal " << sig);
    const std::string dir = scratch_dir("trial-term");
    NpusimResult r;
    const TrialSeen seen = interrupt_during_trial(dir, sig, r);
    REQUIRE(seen.pid != 0);
    CHECK(r.status == 128 + sig);
    CHECK(seen.ended);
    CHECK(!std::filesystem::exists(dir + "/run"));
  }
}

TEST_CASE("split trials: a trial dies with npusim killed by SIGKILL", "[split-trials][e2e]") {
  const std::string dir = scratch_dir("trial-kill");
  NpusimResult r;
  const TrialSeen seen = interrupt_during_trial(dir, SIGKILL, r);
  REQUIRE(seen.pid != 0);
  CHECK(r.status == 128 + SIGKILL);
  CHECK(seen.ended);
}

TEST_CASE("split trials: a trial past --split-trial-seconds stops the run naming the layer and the limit",
          "[split-trials][e2e]") {
  const std::string dir = scratch_dir("trial-limit");
  const NpusimResult r = run_npusim(auto_run(dir, {"--split-trial-seconds", "0.001"}));
  INFO(r.output);
  CHECK(r.status == 2);
  // The layer's place is the workload file's; the limit is named in the reason.
  CHECK(r.output.rfind("error: " + dir + "/big.json: layer 'wide': --split auto: a trial ran over its 0.001 s "
                       "(--split-trial-seconds)",
                       0) == 0);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  CHECK(!std::filesystem::exists(dir + "/run"));
}
