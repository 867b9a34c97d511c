#include <catch2/catch.hpp>

#include <stdexcept>

#include "ReportFixture.h"
#include "sim/common/InputError.h"
#include "sim/report/OutputDirectory.h"

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
  previous_run(final_dir, "stale.txt");

  {
    OutputDirectory out(final_dir.string());
    std::ofstream(out.file("fresh.txt")) << "new run";
    CHECK(fs::exists(final_dir / "stale.txt"));  // old run untouched until commit
    out.commit();
    CHECK(out.committed());
  }
  CHECK(slurp(final_dir / "fresh.txt") == "new run");
  CHECK_FALSE(fs::exists(final_dir / "stale.txt"));
  // Only the final directory remains: no staging or displaced copies.
  CHECK(std::distance(fs::directory_iterator(scratch.path), fs::directory_iterator()) == 1);
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
  CHECK(fresh_run_directory(root, "conv") == (scratch.path / "conv-001").string());
  CHECK(fresh_run_directory(root, "conv") == (scratch.path / "conv-001").string());
  fs::create_directory(scratch.path / "conv-001");
  CHECK(fresh_run_directory(root, "conv") == (scratch.path / "conv-002").string());
  fs::create_directory(scratch.path / "conv-003");
  CHECK(fresh_run_directory(root, "conv") == (scratch.path / "conv-002").string());
  fs::create_directory(scratch.path / "conv-002");
  CHECK(fresh_run_directory(root, "conv") == (scratch.path / "conv-004").string());
  CHECK(fresh_run_directory(root, "gemm") == (scratch.path / "gemm-001").string());
}

TEST_CASE("write_file_atomically replaces contents and leaves no temporary", "[report]") {
  ScratchDir scratch("atomic");
  const fs::path target = scratch.path / "summary.txt";
  write_file_atomically(target.string(), "first");
  CHECK(slurp(target) == "first");
  write_file_atomically(target.string(), "second, longer");
  CHECK(slurp(target) == "second, longer");
  CHECK(std::distance(fs::directory_iterator(scratch.path), fs::directory_iterator()) == 1);
  CHECK_THROWS(write_file_atomically((scratch.path / "missing" / "x.txt").string(), "x"));
}
