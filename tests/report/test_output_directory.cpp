#include <catch2/catch.hpp>

#include <stdexcept>

#include "ReportFixture.h"
#include "sim/report/OutputDirectory.h"

using namespace npusim;
using namespace npusim::test;

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

TEST_CASE("commit publishes the directory and replaces an existing one", "[report]") {
  ScratchDir scratch("replace");
  const fs::path final_dir = scratch.path / "run";
  fs::create_directories(final_dir);
  std::ofstream(final_dir / "stale.txt") << "old run";

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
  std::ofstream(fs::path(staging) / "half.json") << "{\"trunc";
  OutputDirectory second((scratch.path / "run").string());
  CHECK(second.staging_path() == staging);
  CHECK(fs::is_empty(staging));
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
