#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>

#include "config/ScratchDir.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"

using Catch::Matchers::Contains;

namespace {

std::string reason_reading(const std::string& path) {
  try {
    npusim::read_input_file(path);
  } catch (const npusim::InputError& e) {
    CHECK(e.file() == path);
    return e.reason();
  }
  FAIL("read " << path);
  return "";
}

}  // namespace

TEST_CASE("input files: only ordinary files are read", "[input]") {
  npusim::ScratchDir dir;
  const std::string file = dir.write("a.json", "{}");
  CHECK(npusim::read_input_file(file) == "{}");
  CHECK_THAT(reason_reading(dir.path("absent.json")), Contains("does not exist"));
  CHECK_THAT(reason_reading(dir.path("")), Contains("directory"));
  // /dev/zero never ends: reading it whole used to hang validate and "extends".
  CHECK_THAT(reason_reading("/dev/zero"), Contains("not an ordinary file"));
  const std::string fifo = dir.path("fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(reason_reading(fifo), Contains("not an ordinary file"));
  // A link to an ordinary file is read through.
  std::filesystem::create_symlink(file, dir.path("link.json"));
  CHECK(npusim::read_input_file(dir.path("link.json")) == "{}");
}

TEST_CASE("input files: a prefix reads the first bytes only, with the same checks", "[input]") {
  npusim::ScratchDir dir;
  const std::string file = dir.write("m.onnx", std::string("\x08\x07rest", 6));
  CHECK(npusim::read_input_prefix(file, 1) == "\x08");
  CHECK(npusim::read_input_prefix(file, 100) == std::string("\x08\x07rest", 6));
  CHECK(npusim::read_input_prefix(dir.write("empty", ""), 1).empty());
  try {
    npusim::read_input_prefix("/dev/zero", 1);
    FAIL("read /dev/zero");
  } catch (const npusim::InputError& e) {
    CHECK_THAT(e.reason(), Contains("not an ordinary file"));
  }
}
