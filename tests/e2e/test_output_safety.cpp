#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <filesystem>
#include <thread>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;

// Never destroy a user's data: every writer (run, sweep, compile) replaces only
// what npusim made, and an interrupted or failing one leaves nothing visible.

namespace {

const std::string kRelu = source_path("traces/examples/relu.jsonl");
const std::string kTiny = source_path("traces/workloads/tiny.json");

// A folder of the user's with one file in it.
std::string users_folder(const std::string& dir) {
  fs::create_directories(dir + "/thesis");
  write_text(dir + "/thesis/chapter1.tex", "years of work");
  return dir + "/thesis";
}

void expect_refused(const std::vector<std::string>& args, const std::string& place) {
  const NpusimResult r = run_npusim(args);
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find(place) != std::string::npos);
  CHECK(r.output.find("choose another path") != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

// Nothing but `expected` in `dir`: no staging, displaced or temporary leftovers.
void expect_only(const std::string& dir, std::set<std::string> expected) {
  std::set<std::string> found;
  for (const auto& e : fs::directory_iterator(dir)) found.insert(e.path().filename().string());
  CHECK(found == expected);
}

}  // namespace

TEST_CASE("run --out: a folder or file of the user's is refused and untouched", "[e2e][ownership]") {
  const std::string dir = scratch_dir("out-foreign");
  const std::string thesis = users_folder(dir);
  expect_refused({"run", "--trace", kRelu, "--out", thesis}, thesis);
  CHECK(read_text(thesis + "/chapter1.tex") == "years of work");
  write_text(dir + "/notes.txt", "notes");
  expect_refused({"run", "--trace", kRelu, "--out", dir + "/notes.txt"}, "notes.txt");
  CHECK(read_text(dir + "/notes.txt") == "notes");
  expect_only(dir, {"thesis", "notes.txt"});
}

TEST_CASE("run --out: '.', '/', and /dev/null are exit 2", "[e2e][ownership]") {
  for (const std::string place : {".", "/", "/dev/null"}) {
    const NpusimResult r = run_npusim({"run", "--trace", kRelu, "--out", place});
    INFO(place << ": " << r.output);
    CHECK(r.status == 2);
  }
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("run --out: a previous run directory is replaced", "[e2e][ownership]") {
  const std::string dir = scratch_dir("out-replace");
  REQUIRE(run_npusim({"run", "--trace", kRelu, "--functional", "--out", dir + "/run"}).status == 0);
  REQUIRE(fs::exists(dir + "/run/tensors"));
  const NpusimResult again = run_npusim({"run", "--trace", kRelu, "--out", dir + "/run"});
  INFO(again.output);
  CHECK(again.status == 0);
  CHECK_FALSE(fs::exists(dir + "/run/tensors"));  // the timing run replaced the functional one
  expect_only(dir, {"run"});
}

TEST_CASE("sweep --out: a folder of the user's is refused, a sweep directory resumed", "[e2e][ownership]") {
  const std::string dir = scratch_dir("sweep-out");
  write_text(dir + "/s.json", "{\"config\": \"" + source_path("configs/default.json") + "\", \"workload\": \"" + kTiny +
                                  "\", \"axes\": [{\"name\": \"slaves\", \"pointer\": \"/core/matrix/slaves\", "
                                  "\"values\": [8]}]}");
  const std::string thesis = users_folder(dir);
  expect_refused({"sweep", dir + "/s.json", "--out", thesis}, thesis);
  CHECK(read_text(thesis + "/chapter1.tex") == "years of work");
  expect_refused({"sweep", dir + "/s.json", "--out", dir + "/s.json"}, "s.json");
  // A run directory is not a sweep directory either.
  REQUIRE(run_npusim({"run", "--trace", kRelu, "--out", dir + "/run"}).status == 0);
  expect_refused({"sweep", dir + "/s.json", "--out", dir + "/run"}, "run");
  REQUIRE(run_npusim({"sweep", dir + "/s.json", "--out", dir + "/sweep"}).status == 0);
  const NpusimResult resumed = run_npusim({"sweep", dir + "/s.json", "--out", dir + "/sweep"});
  INFO(resumed.output);
  CHECK(resumed.status == 0);
  CHECK(resumed.output.find("1 skipped") != std::string::npos);
}

TEST_CASE("compile -o: replaces only a trace of ours, or anything with --overwrite", "[e2e][ownership][heavy]") {
  const std::string dir = scratch_dir("compile-out");
  const std::vector<std::string> compile = {"compile", "--quiet", "--workload", kTiny, "-o"};
  auto with = [&](const std::string& out, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = compile;
    args.push_back(out);
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  write_text(dir + "/notes.txt", "notes");
  expect_refused(with(dir + "/notes.txt"), "--overwrite");
  CHECK(read_text(dir + "/notes.txt") == "notes");
  REQUIRE(run_npusim(with(dir + "/notes.txt", {"--overwrite"})).status == 0);
  const std::string notes = read_text(dir + "/notes.txt");
  CHECK(notes.substr(0, notes.find('\n')).find("\"format\":\"npusim-trace\"") != std::string::npos);
  REQUIRE(run_npusim(with(dir + "/t.jsonl")).status == 0);
  CHECK(run_npusim(with(dir + "/t.jsonl")).status == 0);  // our own trace: replaced
  // A NUMA chip's header lists every tensor's chunks: for a whole network, longer than any
  // fixed prefix read (tiny's no longer is, now that shared weights are stored once).
  const std::vector<std::string> numa = {"compile", "--quiet", "--workload",
                                         source_path("traces/workloads/mobilenetv2.json"), "--config",
                                         source_path("configs/numa-4x4.json"), "-o", dir + "/t.jsonl"};
  REQUIRE(run_npusim(numa).status == 0);
  CHECK(read_text(dir + "/t.jsonl").find('\n') > 4096);
  CHECK(run_npusim(numa).status == 0);
  const std::string thesis = users_folder(dir);
  expect_refused(with(thesis, {"--overwrite"}), "directory");
  for (const std::string place : {"/dev/null", "/dev/full"}) {
    const NpusimResult r = run_npusim(with(place, {"--overwrite"}));
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK(fs::is_character_file(place));
  }
  CHECK(run_npusim(with("")).status == 2);
  expect_only(dir, {"notes.txt", "t.jsonl", "thesis"});
}

TEST_CASE("audit: compile -o never writes through a link planted at its temporary name", "[e2e][ownership]") {
  const std::string dir = scratch_dir("compile-link");
  write_text(dir + "/victim.txt", "precious");
  // The old fixed temporary name, and the target itself, as links to the victim.
  fs::create_symlink(dir + "/victim.txt", dir + "/t.jsonl.partial");
  REQUIRE(run_npusim({"compile", "--quiet", "--workload", kTiny, "-o", dir + "/t.jsonl"}).status == 0);
  CHECK(read_text(dir + "/victim.txt") == "precious");
  fs::create_symlink(dir + "/victim.txt", dir + "/u.jsonl");
  expect_refused({"compile", "--quiet", "--workload", kTiny, "-o", dir + "/u.jsonl", "--overwrite"}, "symbolic link");
  CHECK(read_text(dir + "/victim.txt") == "precious");
  // Failures leave no temporary: a directory as target, and an empty path.
  CHECK(run_npusim({"compile", "--workload", kTiny, "-o", dir}).status == 2);
  expect_only(dir, {"victim.txt", "t.jsonl.partial", "t.jsonl", "u.jsonl"});
}

TEST_CASE("SIGINT, SIGTERM and SIGHUP during a long functional run leave nothing and exit 130/143/129",
          "[e2e][signals]") {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const std::string dir = scratch_dir("signal-" + std::to_string(sig));
    NpusimLaunch launch;
    launch.in_child = [] {  // whatever the test runner ignores, npusim starts with defaults
      for (const int s : {SIGINT, SIGTERM, SIGHUP}) signal(s, SIG_DFL);
    };
    bool signalled = false;
    launch.while_running = [&](pid_t pid) {
      // Wait until the run is under way (its staging directory exists), then stop it.
      const std::string staging = dir + "/.run." + std::to_string(pid) + "-0.partial";
      for (int i = 0; i < 2000 && !fs::exists(staging); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      signalled = fs::exists(staging) && kill(pid, sig) == 0;
    };
    const NpusimResult r = run_npusim({"run", "--functional", "--quiet", "--out", dir + "/run"}, launch);
    INFO(r.output);
    REQUIRE(signalled);
    CHECK(r.status == 128 + sig);
    const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
    CHECK(r.output.find(std::string("interrupted by ") + name) != std::string::npos);
    CHECK(r.output.find("-0.partial") != std::string::npos);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') <= 2);  // a blank line, then the message
    expect_only(dir, {});
  }
}

TEST_CASE("a full disk fails cleanly: exit 2 or 3 naming the file, nothing visible left", "[e2e][disk-full]") {
  // RLIMIT_FSIZE stands in for a full disk: writes past it fail with EFBIG.
  NpusimLaunch small_files;
  small_files.in_child = [] {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit {16384, 16384};
    setrlimit(RLIMIT_FSIZE, &limit);
  };
  const std::string dir = scratch_dir("disk-full");
  const NpusimResult run = run_npusim({"run", "--workload", kTiny, "--functional", "--out", dir + "/run"}, small_files);
  INFO(run.output);
  CHECK((run.status == 2 || run.status == 3));
  CHECK(run.output.find("File too large") != std::string::npos);
  CHECK(run.output.find(dir) != std::string::npos);
  const NpusimResult compile = run_npusim(
      {"compile", "--workload", source_path("traces/workloads/resnet50.json"), "-o", dir + "/r.jsonl"}, small_files);
  INFO(compile.output);
  CHECK(compile.status == 2);
  CHECK(compile.output.find("r.jsonl: writing failed: File too large") != std::string::npos);
  expect_only(dir, {});
}

TEST_CASE("nohup: a run started with SIGHUP ignored survives it", "[e2e][signals]") {
  const std::string dir = scratch_dir("nohup");
  NpusimLaunch launch;
  launch.in_child = [] {
    signal(SIGHUP, SIG_IGN);
    signal(SIGTERM, SIG_DFL);
  };
  launch.while_running = [&](pid_t pid) {
    const std::string staging = dir + "/.run." + std::to_string(pid) + "-0.partial";
    for (int i = 0; i < 2000 && !fs::exists(staging); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGHUP);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    kill(pid, SIGTERM);  // still running after the HUP: only this one stops it
  };
  const NpusimResult r = run_npusim({"run", "--functional", "--quiet", "--out", dir + "/run"}, launch);
  INFO(r.output);
  CHECK(r.status == 128 + SIGTERM);
  expect_only(dir, {});
}
