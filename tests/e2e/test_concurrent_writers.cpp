#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "e2e/NpusimProcess.h"

namespace fs = std::filesystem;

// Issue 28's findings about output places, each one a named test: two writers of one
// place, default names claimed at once, crash leftovers of other processes, data the
// user put there, signals and limits, and mistakes in paths that used to be exit 3.

namespace {

const std::string kRelu = source_path("traces/examples/relu.jsonl");
const std::string kTiny = source_path("traces/workloads/tiny.json");
const std::string kResNet = source_path("traces/workloads/resnet50.json");

std::set<std::string> entries(const std::string& dir) {
  std::set<std::string> found;
  for (const auto& e : fs::directory_iterator(dir)) found.insert(e.path().filename().string());
  return found;
}

// Blocks until `path` exists (the other process has got that far), at most ~10 s.
bool wait_for(const std::string& path) {
  for (int i = 0; i < 2000 && !fs::exists(path); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return fs::exists(path);
}

// A one-axis sweep of `values` over the tiny network.
std::string sweep_spec(const std::string& dir, const std::string& values) {
  const std::string path = dir + "/s.json";
  write_text(path, "{\"config\": \"" + source_path("configs/default.json") + "\", \"workload\": \"" + kTiny +
                       "\", \"axes\": [{\"name\": \"slaves\", \"pointer\": \"/core/matrix/slaves\", \"values\": [" +
                       values + "]}]}");
  return path;
}

void expect_one_line_refusal(const NpusimResult& r, const std::string& says) {
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.rfind("error: ", 0) == 0);
  CHECK(r.output.find(says) != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("concurrency: 20 default-name runs at once all succeed with distinct folders", "[e2e][concurrency]") {
  const std::string dir = scratch_dir("twenty-defaults");
  NpusimLaunch in_dir;
  in_dir.in_child = [&dir] { (void)!chdir(dir.c_str()); };
  std::vector<NpusimResult> results(20);
  std::vector<std::thread> runs;
  for (auto& r : results) runs.emplace_back([&r, &in_dir] { r = run_npusim({"run", "-q", "--trace", kRelu}, in_dir); });
  for (auto& t : runs) t.join();
  for (const auto& r : results) {
    INFO(r.output);
    CHECK(r.status == 0);
  }
  std::set<std::string> expected;
  for (int n = 1; n <= 20; ++n) expected.insert(fmt::format("relu-{:03}", n));
  CHECK(entries(dir + "/runs") == expected);  // and no lock or staging left beside them
  for (const std::string& run : expected) CHECK(fs::is_regular_file(dir + "/runs/" + run + "/report.json"));
}

TEST_CASE("concurrency: two runs into one --out give one complete folder and one exit 2 naming the pid",
          "[e2e][concurrency][heavy]") {
  const std::string dir = scratch_dir("two-writers");
  REQUIRE(run_npusim({"run", "-q", "--functional", "-w", kResNet, "--out", dir + "/solo"}).status == 0);
  NpusimLaunch second;
  NpusimResult refused;
  pid_t first_pid = 0;
  second.while_running = [&](pid_t pid) {
    first_pid = pid;
    REQUIRE(wait_for(dir + "/.same.lock"));
    refused = run_npusim({"run", "-q", "--functional", "-w", kTiny, "--out", dir + "/same"});
  };
  const NpusimResult first = run_npusim({"run", "-q", "--functional", "-w", kResNet, "--out", dir + "/same"}, second);
  INFO(first.output);
  CHECK(first.status == 0);
  expect_one_line_refusal(refused, fmt::format("another npusim (pid {}) is writing this place", first_pid));
  for (const char* file : {"report.json", "instructions.csv", "timeline.json"})
    CHECK(read_text(dir + "/same/" + file) == read_text(dir + "/solo/" + file));
  CHECK(entries(dir + "/same/tensors") == entries(dir + "/solo/tensors"));
  CHECK(entries(dir) == std::set<std::string>{"solo", "same"});
}

TEST_CASE("concurrency: a second sweep into one --out is refused while the first completes", "[e2e][concurrency]") {
  const std::string dir = scratch_dir("two-sweeps");
  const std::string spec = sweep_spec(dir, "4, 8, 16, 32");
  NpusimLaunch second;
  NpusimResult refused;
  second.while_running = [&](pid_t) {
    REQUIRE(wait_for(dir + "/.sweep.lock"));
    refused = run_npusim({"sweep", spec, "--out", dir + "/sweep"});
  };
  const NpusimResult first = run_npusim({"sweep", spec, "--out", dir + "/sweep", "--jobs", "1"}, second);
  INFO(first.output);
  CHECK(first.status == 0);
  expect_one_line_refusal(refused, "another npusim (pid ");
  const std::string csv = read_text(dir + "/sweep/results.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 5);
  CHECK(csv.find("failed") == std::string::npos);
}

TEST_CASE("a run killed with SIGKILL leaves staging that the next run into the place clears", "[e2e][concurrency]") {
  const std::string dir = scratch_dir("sigkill");
  NpusimLaunch killer;
  killer.while_running = [&](pid_t pid) {
    REQUIRE(wait_for(dir + "/.run." + std::to_string(pid) + "-0.partial"));
    kill(pid, SIGKILL);
  };
  CHECK(run_npusim({"run", "-q", "--functional", "-w", kResNet, "--out", dir + "/run"}, killer).status == 128 + SIGKILL);
  CHECK(entries(dir).size() >= 1);  // its staging (and lock file) stayed behind
  const NpusimResult next = run_npusim({"run", "-q", "--trace", kRelu, "--out", dir + "/run"});
  INFO(next.output);
  CHECK(next.status == 0);
  CHECK(entries(dir) == std::set<std::string>{"run"});
}

TEST_CASE("run --out: files the user added to an earlier run folder are refused, not deleted", "[e2e][ownership]") {
  const std::string dir = scratch_dir("added-notes");
  REQUIRE(run_npusim({"run", "-q", "--trace", kRelu, "--out", dir + "/run"}).status == 0);
  write_text(dir + "/run/notes.md", "what I learned");
  expect_one_line_refusal(run_npusim({"run", "-q", "--trace", kRelu, "--out", dir + "/run"}), "notes.md");
  CHECK(read_text(dir + "/run/notes.md") == "what I learned");
}

TEST_CASE("run --out: an empty folder of the user's keeps its inode, owner and mode", "[e2e][ownership]") {
  const std::string dir = scratch_dir("user-empty");
  fs::create_directories(dir + "/mine");
  REQUIRE(chmod((dir + "/mine").c_str(), 02770) == 0);
  struct stat before {};
  REQUIRE(stat((dir + "/mine").c_str(), &before) == 0);
  for (int i = 0; i < 2; ++i) REQUIRE(run_npusim({"run", "-q", "--trace", kRelu, "--out", dir + "/mine"}).status == 0);
  struct stat after {};
  REQUIRE(stat((dir + "/mine").c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(after.st_mode == before.st_mode);
  CHECK(after.st_uid == before.st_uid);
  CHECK(fs::is_regular_file(dir + "/mine/report.json"));
  CHECK(entries(dir) == std::set<std::string>{"mine"});
}

TEST_CASE("compile -o: a hand-written trace is the user's, only a compiled one is replaced", "[e2e][ownership]") {
  const std::string dir = scratch_dir("hand-trace");
  const std::string mine = dir + "/mine.jsonl";
  write_text(mine, read_text(kRelu));
  expect_one_line_refusal(run_npusim({"compile", "-q", "-w", kTiny, "-o", mine}), "--overwrite");
  CHECK(read_text(mine) == read_text(kRelu));
  REQUIRE(run_npusim({"compile", "-q", "-w", kTiny, "-o", dir + "/t.jsonl"}).status == 0);
  CHECK(read_text(dir + "/t.jsonl").find("\"compiled_by\":\"npusim compile\"") < read_text(dir + "/t.jsonl").find('\n'));
  CHECK(run_npusim({"compile", "-q", "-w", kTiny, "-o", dir + "/t.jsonl"}).status == 0);
  // A killed compile's temporary is cleared by the next compile into the same file.
  write_text(dir + "/.t.jsonl.99999-0.partial", "{\"half");
  CHECK(run_npusim({"compile", "-q", "-w", kTiny, "-o", dir + "/t.jsonl"}).status == 0);
  CHECK(entries(dir) == std::set<std::string>{"mine.jsonl", "t.jsonl"});
}

TEST_CASE("ulimit -f: run, compile and sweep report the write that failed and leave nothing half-written",
          "[e2e][disk-full]") {
  NpusimLaunch small_files;  // as a user's shell sets it: SIGXFSZ at its default
  small_files.in_child = [] {
    struct rlimit limit {16384, 16384};
    setrlimit(RLIMIT_FSIZE, &limit);
  };
  const std::string dir = scratch_dir("ulimit-f");
  const std::vector<std::vector<std::string>> commands = {
      {"run", "-q", "--functional", "-w", kTiny, "--out", dir + "/run"},
      {"compile", "-q", "-w", kResNet, "-o", dir + "/r.jsonl"}};
  for (const auto& args : commands) {
    const NpusimResult r = run_npusim(args, small_files);
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK(r.output.find("File too large") != std::string::npos);
  }
  CHECK(entries(dir) == std::set<std::string>{});
  // A sweep records the point that could not write its report as failed, with the reason.
  const NpusimResult sweep = run_npusim({"sweep", sweep_spec(dir, "8"), "--out", dir + "/sweep"}, small_files);
  INFO(sweep.output);
  CHECK(sweep.status == 0);
  CHECK(read_text(dir + "/sweep/points/000-slaves=8/error.txt").find("File too large") != std::string::npos);
  for (const auto& e : fs::recursive_directory_iterator(dir))
    CHECK(e.path().filename().string().find("partial") == std::string::npos);
}

TEST_CASE("a sweep on a full disk says so instead of reporting points as not run", "[e2e][disk-full]") {
  NpusimLaunch small_files;
  small_files.in_child = [] {
    struct rlimit limit {600, 600};  // enough for the marker, not for a point
    setrlimit(RLIMIT_FSIZE, &limit);
  };
  const std::string dir = scratch_dir("sweep-full");
  const NpusimResult r = run_npusim({"sweep", sweep_spec(dir, "4, 8"), "--out", dir + "/sweep"}, small_files);
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find("File too large") != std::string::npos);
  CHECK(r.output.find("not run") == std::string::npos);
}

TEST_CASE("validate into /dev/full fails with a message instead of exit 0", "[e2e][disk-full]") {
  NpusimLaunch full_stdout;
  full_stdout.in_child = [] {
    const int fd = open("/dev/full", O_WRONLY);
    dup2(fd, STDOUT_FILENO);
  };
  const NpusimResult r = run_npusim({"validate", source_path("configs/default.json")}, full_stdout);
  expect_one_line_refusal(r, "standard output: cannot write: No space left on device");
}

TEST_CASE("paths the file system refuses are exit 2 naming them, not exit 3", "[e2e][bad-input]") {
  const std::string dir = scratch_dir("refused-paths");
  const std::string long_name(300, 'x');
  const std::string spec = sweep_spec(dir, "8");
  expect_one_line_refusal(run_npusim({"sweep", spec, "--out", dir + "/" + long_name}),
                          "leaves no room for the staging names");
  expect_one_line_refusal(run_npusim({"sweep", spec, "--out", dir + "/new/" + long_name + "/s"}), "File name too long");
  CHECK_FALSE(fs::exists(dir + "/new"));  // the parent made before the long name failed goes again
  expect_one_line_refusal(run_npusim({"sweep", spec, "--out", "/sys/npusim-sweep"}), "Permission denied");
  write_text(dir + "/long.json", "{\"config\": \"" + long_name + "\", \"workload\": \"" + kTiny +
                                     "\", \"axes\": [{\"name\": \"s\", \"pointer\": \"/core/matrix/slaves\", "
                                     "\"values\": [8]}]}");
  expect_one_line_refusal(run_npusim({"sweep", dir + "/long.json", "--out", dir + "/s2"}), "File name too long");
  fs::create_symlink(dir + "/loop-b", dir + "/loop-a");
  fs::create_symlink(dir + "/loop-a", dir + "/loop-b");
  expect_one_line_refusal(run_npusim({"diff", dir + "/loop-a", dir + "/loop-b"}), "Too many levels of symbolic links");
  expect_one_line_refusal(run_npusim({"diff", dir + "/" + long_name, dir}), "File name too long");
}

TEST_CASE("a huge but valid input that does not fit in memory says how much it needed",
          "[e2e][bad-input][memory-cap]") {
  const std::string dir = scratch_dir("huge-input");
  // 2^31 int8 values: the input tensor alone is 2 GiB, under a 1.5 GiB address-space cap.
  write_text(dir + "/huge.json",
             "{\"name\": \"huge\", \"batch\": 1, \"input\": {\"h\": 16384, \"w\": 16384, \"c\": 8}, \"seed\": 1, "
             "\"layers\": [{\"name\": \"r\", \"type\": \"relu\"}]}");
  NpusimLaunch capped;
  capped.in_child = [] {
    struct rlimit limit {1536ull << 20, 1536ull << 20};
    setrlimit(RLIMIT_AS, &limit);
  };
  const NpusimResult r = run_npusim({"run", "-q", "-f", "-w", dir + "/huge.json", "--out", dir + "/run"}, capped);
  expect_one_line_refusal(r, "bytes (4.00 GiB) of memory");
  CHECK(entries(dir) == std::set<std::string>{"huge.json"});
}

TEST_CASE("sweep: a note the user left in a point stops the sweep naming it, and is kept", "[e2e][ownership]") {
  const std::string dir = scratch_dir("sweep-notes");
  REQUIRE(run_npusim({"sweep", sweep_spec(dir, "8"), "--out", dir + "/sweep"}).status == 0);
  const std::string point = dir + "/sweep/points/000-slaves=8";
  write_text(point + "/notes.md", "why 8 slaves");
  // A changed base config makes the point run again: its folder is the user's now.
  write_text(dir + "/s.json", "{\"config\": \"" + source_path("configs/smp-2x2.json") + "\", \"workload\": \"" + kTiny +
                                  "\", \"axes\": [{\"name\": \"slaves\", \"pointer\": \"/core/matrix/slaves\", "
                                  "\"values\": [8]}]}");
  expect_one_line_refusal(run_npusim({"sweep", dir + "/s.json", "--out", dir + "/sweep"}), "notes.md");
  CHECK(read_text(point + "/notes.md") == "why 8 slaves");
}
