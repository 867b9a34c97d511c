#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

#include <fmt/format.h>

#include "ReportFixture.h"
#include "sim/common/InputError.h"
#include "sim/report/OutputDirectory.h"
#include "sim/report/PlaceLock.h"

using namespace npusim;
using namespace npusim::test;
using Catch::Matchers::Contains;

TEST_CASE("uncommitted output directory leaves nothing behind", "[report]") {
  ScratchDir scratch("uncommitted");
  const fs::path final_dir = scratch.path / "run";
  std::string staging;
  try {
    OutputDirectory out(final_dir.string());
    staging = out.staging_path();
    std::ofstream(out.file("report.json")) << "{}";
    REQUIRE(fs::exists(staging));
    throw std::runtime_error("simulated failure before commit");
  } catch (const std::runtime_error&) {
  }
  CHECK_FALSE(fs::exists(staging));
  CHECK_FALSE(fs::exists(final_dir));
  CHECK(fs::is_empty(scratch.path));
}

TEST_CASE("staging directory is a hidden sibling of the final path", "[report]") {
  ScratchDir scratch("staging");
  OutputDirectory out((scratch.path / "nested" / "run").string());
  const fs::path staging = out.staging_path();
  CHECK(staging.parent_path() == scratch.path / "nested");
  CHECK(staging.filename().string().front() == '.');
  CHECK(fs::path(out.file("x.csv")).parent_path() == staging);
  CHECK_FALSE(fs::exists(scratch.path / "nested" / "run"));
}

namespace {

// A finished run directory holding one file, as a previous run leaves it.
void previous_run(const fs::path& dir, const std::string& file) {
  OutputDirectory out(dir.string());
  std::ofstream(out.file(file)) << "old run";
  out.commit();
}

std::string refusal(const std::string& path) {
  try {
    OutputDirectory out(path);
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("accepted " << path);
  return "";
}

}  // namespace

TEST_CASE("commit publishes the directory and replaces an existing one", "[report]") {
  ScratchDir scratch("replace");
  const fs::path final_dir = scratch.path / "run";
  previous_run(final_dir, "timeline.json");

  {
    OutputDirectory out(final_dir.string());
    std::ofstream(out.file("report.json")) << "new run";
    CHECK(fs::exists(final_dir / "timeline.json"));  // old run untouched until commit
    out.commit();
    CHECK(out.committed());
  }
  CHECK(slurp(final_dir / "report.json") == "new run");
  CHECK_FALSE(fs::exists(final_dir / "timeline.json"));
  // Only the final directory remains: no staging or displaced copies, beside or inside.
  CHECK(std::distance(fs::directory_iterator(scratch.path), fs::directory_iterator()) == 1);
  CHECK(std::distance(fs::directory_iterator(final_dir), fs::directory_iterator()) == 2);
}

TEST_CASE("a staging directory left by a crash is cleared", "[report]") {
  ScratchDir scratch("crash");
  std::string staging;
  {
    OutputDirectory first((scratch.path / "run").string());
    staging = first.staging_path();
  }
  fs::create_directories(staging);
  write_marker(staging, OutputKind::Run);
  std::ofstream(fs::path(staging) / "half.json") << "{\"trunc";
  OutputDirectory second((scratch.path / "run").string());
  CHECK(second.staging_path() == staging);
  CHECK_FALSE(fs::exists(fs::path(staging) / "half.json"));
}

TEST_CASE("output places npusim did not make are refused and left untouched", "[report][ownership]") {
  ScratchDir scratch("foreign");
  const fs::path thesis = scratch.path / "thesis";
  fs::create_directories(thesis);
  std::ofstream(thesis / "chapter1.tex") << "years of work";
  CHECK_THAT(refusal(thesis.string()), Contains("did not make") && Contains("choose another path"));
  CHECK(slurp(thesis / "chapter1.tex") == "years of work");
  std::ofstream(scratch.path / "notes.txt") << "notes";
  CHECK_THAT(refusal((scratch.path / "notes.txt").string()), Contains("existing file"));
  CHECK(slurp(scratch.path / "notes.txt") == "notes");
  CHECK_THAT(refusal("/dev/null"), Contains("device"));
  for (const char* place : {".", "..", "/", "", "a/.."}) CHECK_THAT(refusal(place), Contains("not a place"));
  fs::create_directory_symlink(thesis, scratch.path / "link");
  CHECK_THAT(refusal((scratch.path / "link").string()), Contains("symbolic link"));
  // A run directory of ours with a foreign file in its staging name is refused too.
  fs::create_directories(scratch.path / ".run.partial");
  std::ofstream(scratch.path / ".run.partial" / "mine.txt") << "mine";
  CHECK_THAT(refusal((scratch.path / "run").string()), Contains("staging area"));
  CHECK(slurp(scratch.path / ".run.partial" / "mine.txt") == "mine");
  // Parents that cannot be made are the user's mistake too.
  CHECK_THAT(refusal((scratch.path / "notes.txt" / "run").string()), Contains("cannot create its parent"));
  // Nothing of ours was left anywhere.
  CHECK(std::distance(fs::directory_iterator(scratch.path), fs::directory_iterator()) == 4);
}

TEST_CASE("an empty directory is taken as a run directory", "[report][ownership]") {
  ScratchDir scratch("empty");
  fs::create_directories(scratch.path / "run");
  OutputDirectory out((scratch.path / "run").string());
  out.commit();
  CHECK(has_marker(scratch.path / "run", OutputKind::Run));
}

TEST_CASE("fresh_run_directory numbers runs from 001 and takes the first gap", "[report]") {
  ScratchDir scratch("fresh");
  const std::string root = scratch.path.string();
  const auto fresh = [&](const std::string& stem) { return fresh_run_directory(root, stem).path; };
  CHECK(fresh("conv") == (scratch.path / "conv-001").string());
  CHECK(fresh("conv") == (scratch.path / "conv-001").string());
  fs::create_directory(scratch.path / "conv-001");
  CHECK(fresh("conv") == (scratch.path / "conv-002").string());
  fs::create_directory(scratch.path / "conv-003");
  CHECK(fresh("conv") == (scratch.path / "conv-002").string());
  fs::create_directory(scratch.path / "conv-002");
  CHECK(fresh("conv") == (scratch.path / "conv-004").string());
  CHECK(fresh("gemm") == (scratch.path / "gemm-001").string());
}

TEST_CASE("fresh_run_directory skips a number another holder has claimed", "[report][concurrency]") {
  ScratchDir scratch("fresh-claimed");
  const FreshRunDirectory first = fresh_run_directory(scratch.path.string(), "conv");
  CHECK(first.path == (scratch.path / "conv-001").string());
  // Inside one process a claim is shared; what another process holds shows up as a
  // locked file. Simulate the other process with a second open file description.
  const fs::path lock = PlaceLock::lock_file(scratch.path / "conv-002");
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT, 0644);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  const FreshRunDirectory second = fresh_run_directory(scratch.path.string(), "conv");
  ::close(fd);
  CHECK(second.path == (scratch.path / "conv-001").string());  // our own claim is ours to use
  CHECK(PlaceLock::try_claim(scratch.path / "conv-001") == first.claim);
}

TEST_CASE("a place locked by another process is refused naming its pid", "[report][concurrency]") {
  ScratchDir scratch("locked");
  const fs::path lock = PlaceLock::lock_file(scratch.path / "run");
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT, 0644);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  REQUIRE(::write(fd, "4242\n", 5) == 5);
  CHECK(PlaceLock::try_claim(scratch.path / "run") == nullptr);
  CHECK_THAT(refusal((scratch.path / "run").string()), Contains("pid 4242") && Contains("another npusim"));
  ::close(fd);  // the holder is gone: the place is free again
  {
    OutputDirectory out((scratch.path / "run").string());
    out.commit();
  }
  CHECK(fs::is_directory(scratch.path / "run"));
  CHECK_FALSE(fs::exists(lock));  // released with the claim
}

TEST_CASE("staging is private: its name carries the pid and is created exclusively", "[report][concurrency]") {
  ScratchDir scratch("private");
  OutputDirectory out((scratch.path / "run").string());
  const std::string name = fs::path(out.staging_path()).filename().string();
  CHECK(name == fmt::format(".run.{}-0.partial", ::getpid()));
  CHECK(is_leftover_name(name, "run"));
  CHECK_FALSE(is_leftover_name(".run.partial.txt", "run"));
  CHECK_FALSE(is_leftover_name(".runs.1-2.partial", "run"));
  CHECK_FALSE(is_leftover_name(".run.x-2.partial", "run"));
}

TEST_CASE("leftovers of crashed writers with other pids are cleared, foreign look-alikes refused", "[report][concurrency]") {
  ScratchDir scratch("crash-pids");
  for (const char* name : {".run.99999-3.partial", ".run.partial", ".run.77-0.old"}) {
    fs::create_directories(scratch.path / name);
    write_marker(scratch.path / name, OutputKind::Run);
    std::ofstream(scratch.path / name / "report.json") << "{\"trunc";
  }
  {
    OutputDirectory out((scratch.path / "run").string());
    out.commit();
  }
  CHECK(std::distance(fs::directory_iterator(scratch.path), fs::directory_iterator()) == 1);
  fs::create_directories(scratch.path / ".run.5-1.partial");
  std::ofstream(scratch.path / ".run.5-1.partial" / "mine.txt") << "mine";
  CHECK_THAT(refusal((scratch.path / "run").string()), Contains("staging area"));
  CHECK(slurp(scratch.path / ".run.5-1.partial" / "mine.txt") == "mine");
}

TEST_CASE("an empty folder of the user's is written into and keeps its inode and mode", "[report][ownership]") {
  ScratchDir scratch("keep-inode");
  const fs::path dir = scratch.path / "mine";
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  struct stat before {};
  REQUIRE(::stat(dir.c_str(), &before) == 0);
  for (int run = 0; run < 2; ++run) {  // the second run replaces the first's files, not the folder
    OutputDirectory out(dir.string());
    CHECK(fs::path(out.staging_path()).parent_path() == dir);
    std::ofstream(out.file("report.json")) << "run " << run;
    out.commit();
  }
  struct stat after {};
  REQUIRE(::stat(dir.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(after.st_mode == before.st_mode);
  CHECK(slurp(dir / "report.json") == "run 1");
  CHECK(has_marker(dir, OutputKind::Run));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);  // marker + report
}

TEST_CASE("a run directory holding a file the user added is refused, naming it", "[report][ownership]") {
  ScratchDir scratch("added-notes");
  previous_run(scratch.path / "run", "report.json");
  std::ofstream(scratch.path / "run" / "notes.md") << "my notes";
  CHECK_THAT(refusal((scratch.path / "run").string()), Contains("notes.md") && Contains("did not write"));
  CHECK(slurp(scratch.path / "run" / "notes.md") == "my notes");
  fs::remove(scratch.path / "run" / "notes.md");
  fs::create_directories(scratch.path / "run" / "tensors");
  std::ofstream(scratch.path / "run" / "tensors" / "y.npy") << "npy";
  std::ofstream(scratch.path / "run" / "tensors" / "plot.png") << "png";
  CHECK_THAT(refusal((scratch.path / "run").string()), Contains("tensors/plot.png"));
}

TEST_CASE("a folder made at the final path while the run simulates is written into, not replaced",
          "[report][ownership]") {
  ScratchDir scratch("made-meanwhile");
  const fs::path dir = scratch.path / "run";
  struct stat before {};
  {
    OutputDirectory out(dir.string());
    std::ofstream(out.file("report.json")) << "new";
    fs::create_directories(dir);
    REQUIRE(::stat(dir.c_str(), &before) == 0);
    out.commit();
  }
  struct stat after {};
  REQUIRE(::stat(dir.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(slurp(dir / "report.json") == "new");
  CHECK(std::distance(fs::directory_iterator(scratch.path), fs::directory_iterator()) == 1);
}

TEST_CASE("whatever step of an in-place commit a kill interrupts, the next run clears it", "[report][ownership]") {
  ScratchDir scratch("killed-commit");
  const fs::path dir = scratch.path / "run";
  previous_run(dir, "timeline.json");
  // The state after a kill while the old files move aside: a marked displaced folder
  // holding some of them, the final folder still marked, the new run's staging inside.
  const fs::path displaced = dir / ".run.4242-0.old";
  fs::create_directories(displaced);
  write_marker(displaced, OutputKind::Run);
  fs::rename(dir / "timeline.json", displaced / "timeline.json");
  const fs::path staging = dir / ".run.4242-0.partial";
  fs::create_directories(staging);
  write_marker(staging, OutputKind::Run);
  std::ofstream(staging / "report.json") << "half";
  {
    OutputDirectory out(dir.string());
    std::ofstream(out.file("report.json")) << "whole";
    out.commit();
  }
  CHECK(slurp(dir / "report.json") == "whole");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);
}

TEST_CASE("a sweep's killed temporaries in a point are npusim's, a user's hidden .old file is not a leftover",
          "[report][ownership]") {
  ScratchDir scratch("temporaries");
  previous_run(scratch.path / "run", "report.json");
  std::ofstream(scratch.path / "run" / ".point.json.77-0.partial") << "{\"half";
  {
    OutputDirectory out((scratch.path / "run").string());
    out.commit();
  }
  CHECK_FALSE(fs::exists(scratch.path / "run" / ".point.json.77-0.partial"));
  CHECK(is_temporary_name(".net.jsonl.12-0.partial", "net.jsonl"));
  CHECK_FALSE(is_temporary_name(".net.jsonl.old", "net.jsonl"));
  CHECK_FALSE(is_temporary_name(".net.jsonl.partial", "net.jsonl"));
  std::ofstream(scratch.path / ".net.jsonl.old") << "my backup";
  std::ofstream(scratch.path / ".net.jsonl.12-0.partial") << "half";
  remove_leftover_files(scratch.path / "net.jsonl");
  CHECK(slurp(scratch.path / ".net.jsonl.old") == "my backup");
  CHECK_FALSE(fs::exists(scratch.path / ".net.jsonl.12-0.partial"));
}

TEST_CASE("an existing folder is locked itself, so a parent without room for a lock file is fine",
          "[report][concurrency]") {
  ScratchDir scratch("dir-lock");
  const fs::path dir = scratch.path / "mine";
  fs::create_directories(dir);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);  // as another process holding the folder would
  CHECK(PlaceLock::try_claim(dir) == nullptr);
  ::close(fd);
  CHECK(PlaceLock::try_claim(dir) != nullptr);
}

TEST_CASE("a place whose name leaves no room for the staging names beside it is refused before anything is made",
          "[report][ownership]") {
  ScratchDir scratch("long-last-name");
  const fs::path place = scratch.path / "new" / std::string(230, 'y');
  REQUIRE_THROWS_WITH(OutputDirectory(place.string()), Contains("leaves no room for the staging names"));
  CHECK(fs::is_empty(scratch.path));
  // One that leaves room is taken.
  OutputDirectory fits((scratch.path / "new" / std::string(200, 'y')).string());
  CHECK(fs::exists(scratch.path / "new"));
}

TEST_CASE("parents made part of the way go again when a deeper name is too long for the file system",
          "[report][ownership]") {
  ScratchDir scratch("long-parent-name");
  const fs::path place = scratch.path / "new" / "deeper" / std::string(300, 'y') / "run";
  REQUIRE_THROWS_WITH(OutputDirectory(place.string()), Contains("cannot create its parent directory"));
  CHECK(fs::is_empty(scratch.path));
}
