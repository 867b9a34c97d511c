#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/tensor/Npy.h"
#include "trace/TraceTestSupport.h"

using namespace npusim;
using npusim::testing::ScratchDir;
using Catch::Matchers::Contains;

namespace {

// A .npy file assembled by hand: magic, version, header length, header text.
std::string npy_file(const std::string& dict, std::size_t data_bytes, unsigned char major = 1) {
  std::string header = dict + "\n";
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  std::size_t width = major == 1 ? 2 : 4;
  for (std::size_t i = 0; i < width; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  return out + header + std::string(data_bytes, '\x01');
}

std::string read_reason(const std::string& path) {
  try {
    read_npy(path);
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    return e.reason();
  }
  FAIL("the file was accepted");
  return "";
}

std::vector<std::uint8_t> byte_ramp(std::size_t n) {
  std::vector<std::uint8_t> bytes(n);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::uint8_t>(i * 37 + 11);
  return bytes;
}

const DType kAllTypes[] = {DType::Int8, DType::UInt8, DType::Int16, DType::Int32, DType::Float16, DType::Float32};

bool have_numpy() { return std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("npy round trip keeps dtype, shape and bytes for every dtype", "[npy]") {
  ScratchDir dir;
  std::vector<std::vector<std::uint64_t>> shapes = {{}, {5}, {2, 3}, {1, 3, 4, 7}};
  for (DType t : kAllTypes) {
    for (const auto& shape : shapes) {
      std::uint64_t n = 1;
      for (auto d : shape) n *= d;
      NpyArray a{t, shape, byte_ramp(n * dtype_size(t))};
      auto path = dir.file(fmt::format("{}-{}.npy", dtype_name(t), shape.size()));
      write_npy(path, a);
      NpyHeader h = read_npy_header(path);
      CHECK(h.data_offset % 64 == 0);
      NpyArray b = read_npy(path);
      CHECK(b.dtype == t);
      CHECK(b.shape == shape);
      CHECK(b.data == a.data);
      CHECK_FALSE(std::filesystem::exists(path + ".partial"));
    }
  }
}

TEST_CASE("numpy loads what write_npy writes, and read_npy reads what numpy writes", "[npy]") {
  if (!have_numpy()) {
    WARN("/usr/bin/python3 with numpy is not available; skipped");
    return;
  }
  ScratchDir dir;
  // One numpy process checks every file we wrote and saves each back in its own format.
  std::string script = "import numpy as np\n";
  for (DType t : kAllTypes) {
    std::string ours = dir.file(fmt::format("ours-{}.npy", dtype_name(t)));
    write_npy(ours, NpyArray{t, {2, 3, 5}, byte_ramp(30 * dtype_size(t))});
    script += fmt::format(
        "a = np.load('{0}')\n"
        "assert a.dtype == np.dtype('{1}') and a.shape == (2, 3, 5), (a.dtype, a.shape)\n"
        "assert a.tobytes() == bytes((i * 37 + 11) % 256 for i in range(a.nbytes))\n"
        "np.save('{2}', a)\n",
        ours, dtype_name(t), dir.file(fmt::format("theirs-{}.npy", dtype_name(t))));
  }
  REQUIRE(std::system(("/usr/bin/python3 " + dir.write("check.py", script)).c_str()) == 0);
  for (DType t : kAllTypes) {
    NpyArray b = read_npy(dir.file(fmt::format("theirs-{}.npy", dtype_name(t))));
    CHECK(b.dtype == t);
    CHECK(b.shape == std::vector<std::uint64_t>{2, 3, 5});
    CHECK(b.data == byte_ramp(30 * dtype_size(t)));
  }
}

TEST_CASE("npy read errors name the file and the reason", "[npy]") {
  ScratchDir dir;
  const std::string good_dict = "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }";
  SECTION("missing file") { CHECK_THAT(read_reason(dir.file("nope.npy")), Contains("does not exist")); }
  SECTION("audit: a 20-byte v2 file whose header length says 0xFFFFFFF0") {
    // Checked against the file before allocating: reading first would allocate 4 GiB
    // and only then fail with "file ends before the ...-byte header does".
    std::string lying = std::string("\x93NUMPY\x02\x00", 8) + std::string("\xF0\xFF\xFF\xFF", 4) + "{'descr':";
    REQUIRE(lying.size() == 21);
    CHECK_THAT(read_reason(dir.write("a.npy", lying)),
               Contains("header length field says 4294967280 bytes, but only 9 bytes follow it"));
  }
  SECTION("not an ordinary file") { CHECK_THAT(read_reason("/dev/zero"), Contains("not an ordinary file")); }
  SECTION("bad magic") {
    CHECK_THAT(read_reason(dir.write("a.npy", "PK\x03\x04 not numpy at all")), Contains("bad magic"));
  }
  SECTION("file shorter than the magic") { CHECK_THAT(read_reason(dir.write("a.npy", "\x93NU")), Contains("bad magic")); }
  SECTION("unsupported version") {
    CHECK_THAT(read_reason(dir.write("a.npy", npy_file(good_dict, 12, 9))),
               Contains("unsupported .npy format version 9.0"));
  }
  SECTION("version 2 is read") {
    NpyArray a = read_npy(dir.write("a.npy", npy_file(good_dict, 12, 2)));
    CHECK(a.shape == std::vector<std::uint64_t>{2, 3});
  }
  SECTION("unparsable header") {
    CHECK_THAT(read_reason(dir.write("a.npy", npy_file("{'descr': '<i2', 'shape': (2, 3", 12))),
               Contains("unparsable header"));
  }
  SECTION("header without a shape") {
    CHECK_THAT(read_reason(dir.write("a.npy", npy_file("{'descr': '<i2', 'fortran_order': False}", 12))),
               Contains("unparsable header: 'shape'"));
  }
  SECTION("truncated header") {
    std::string file = npy_file(good_dict, 0);
    CHECK_THAT(read_reason(dir.write("a.npy", file.substr(0, 20))), Contains("truncated header"));
  }
  SECTION("fortran order") {
    CHECK_THAT(read_reason(dir.write("a.npy", npy_file("{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }", 12))),
               Contains("fortran_order is True"));
  }
  SECTION("unsupported dtype") {
    CHECK_THAT(read_reason(dir.write("a.npy", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", 16))),
               Contains("unsupported dtype '<f8'"));
  }
  SECTION("big-endian") {
    CHECK_THAT(read_reason(dir.write("a.npy", npy_file("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", 8))),
               Contains("big-endian"));
  }
  SECTION("truncated data") {
    CHECK(read_reason(dir.write("a.npy", npy_file(good_dict, 10))) == "holds 10 bytes of data, shape needs 12");
  }
  SECTION("extra data") {
    CHECK(read_reason(dir.write("a.npy", npy_file(good_dict, 13))) == "holds 13 bytes of data, shape needs 12");
  }
  SECTION("the header reader checks the data size too") {
    auto path = dir.write("a.npy", npy_file(good_dict, 4));
    CHECK_THROWS_AS(read_npy_header(path), InputError);
  }
}

TEST_CASE("write_npy leaves nothing behind when it cannot write", "[npy]") {
  ScratchDir dir;
  std::string path = dir.file("no-such-dir/out.npy");
  CHECK_THROWS_AS(write_npy(path, NpyArray{DType::Int8, {2}, {1, 2}}), InputError);
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_FALSE(std::filesystem::exists(path + ".partial"));
}
