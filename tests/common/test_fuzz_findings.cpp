// Every input a fuzz target found crashing npusim (tests/fuzz/regressions/) is
// replayed here through the same reader, which must now answer with an InputError.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "sim/common/InputError.h"
#include "sim/common/StrictJson.h"
#include "sim/config/ConfigLoader.h"
#include "apps/sweep/SweepSpec.h"
#include "apps/frontend/WorkloadReader.h"
#include "TestPaths.h"

using Catch::Matchers::Contains;

namespace {

std::string regression(const std::string& target, const std::string& name) {
  return std::string(NPUSIM_TEST_DIR) + "/fuzz/regressions/" + target + "/" + name;
}

template <class Read>
std::string rejection(Read&& read) {
  try {
    read();
  } catch (const npusim::InputError& e) {
    return e.what();
  }
  FAIL("accepted");
  return "";
}

}  // namespace

TEST_CASE("fuzz finding: a number beyond double's range is an InputError, not an internal error", "[fuzz][json]") {
  // nlohmann throws out_of_range (not parse_error) for 1E99999; it escaped as exit 3.
  CHECK_THAT(rejection([] { npusim::load_hardware_config(regression("config", "number-overflow")); }),
             Contains("number-overflow: line 3, column") && Contains("too large"));
  CHECK_THAT(rejection([] { npusim::load_sweep_spec(regression("sweep_spec", "number-overflow")); }),
             Contains("too large"));
  CHECK_THAT(rejection([] { npusim::parse_strict_json<nlohmann::json>("[1, 2e400]", "f"); }),
             Contains("f: line 1, column 10"));
}

TEST_CASE("fuzz finding: an ONNX weight that is NaN is refused at its node, not cast to int8", "[fuzz][onnx]") {
  // The quantizer cast NaN to int8 (undefined behaviour, UBSan's report).
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "nan-weight.onnx")); }),
             Contains("not a finite number"));
}

TEST_CASE("fuzz finding: a Conv over a rank-2 input is refused before the ONNX library infers shapes",
          "[fuzz][onnx]") {
  // libonnx 1.12's convPoolShapeInference read through a null pointer (SEGV) on it.
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "conv-on-rank-2.onnx")); }),
             Contains("node 'conv' (Conv)") && Contains("rank 2"));
}

TEST_CASE("fuzz finding: ONNX names that are not UTF-8 are read, not an internal error", "[fuzz][onnx]") {
  // nlohmann's dump threw type_error 316 on the invalid byte; it escaped the reader.
  CHECK_NOTHROW(npusim::read_workload(regression("onnx", "name-not-utf8.onnx")));
}

TEST_CASE("fuzz finding: a Conv whose weights take other input channels than the map has is refused",
          "[fuzz][onnx]") {
  // Shape inference does not compare them; the weight reorder read past the initializer.
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "conv-channels-mismatch.onnx")); }),
             Contains("node 'conv' (Conv)") && Contains("the input has 5"));
}

TEST_CASE("fuzz finding: a pool with stride 0 is refused before the ONNX library divides by it", "[fuzz][onnx]") {
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "stride-zero.onnx")); }),
             Contains("node 'pool' (MaxPool)") && Contains("'strides' holds 0"));
}

TEST_CASE("fuzz finding: an int64 Constant one byte longer than its shape is refused before libonnx copies it",
          "[fuzz][onnx]") {
  // libonnx 1.12's ParseData<int64_t> copied 41 bytes into a vector of 5 elements
  // (heap-buffer-overflow write, then a glibc abort) during shape inference (issue 28).
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "int64-constant-one-byte-long.onnx")); }),
             Contains("node '/b/Constant' (Constant), attribute 'value'") &&
                 Contains("needs 40 bytes of raw_data (5 x 8 bytes), but it holds 41"));
}

TEST_CASE("fuzz finding: an int64 Constant one byte shorter than its shape is refused before libonnx reads it",
          "[fuzz][onnx]") {
  // ParseData sized its vector 7 / 8 = 0 elements; shape inference then read element 0 (SIGSEGV).
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "int64-constant-one-byte-short.onnx")); }),
             Contains("node '/b/Constant_2' (Constant), attribute 'value'") &&
                 Contains("needs 8 bytes of raw_data (1 x 8 bytes), but it holds 7"));
}

// Issue 42: the audit's crashes in the new ONNX ops, kept as regressions and fuzz seeds.
TEST_CASE("fuzz finding: a channel-shuffle Transpose whose perm names axis 9 of a rank-5 map is refused at its node",
          "[fuzz][onnx]") {
  // libonnx 1.12's Transpose inference read dim 9 of 5 (SIGSEGV).
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "shuffle-transpose-perm-outside-rank.onnx")); }),
             Contains("node '/blocks/blocks.0/Transpose' (Transpose)") && Contains("attribute 'perm' is [0, 2, 1, 3, 9]"));
}

TEST_CASE("fuzz finding: a Reshape to an extent of -7 is refused at its node", "[fuzz][onnx]") {
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "shuffle-reshape-extent-minus-seven.onnx")); }),
             Contains("node '/blocks/blocks.0/Reshape' (Reshape)") && Contains("has -7"));
}

TEST_CASE("fuzz finding: a Reshape whose -1 does not divide its input is refused, not a crash in shape inference",
          "[fuzz][onnx]") {
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "shuffle-reshape-minus-one-not-dividing.onnx")); }),
             Contains("shuffle-reshape-minus-one-not-dividing.onnx"));
}

TEST_CASE("fuzz finding: a class-token shape constant of [0, -1, -1] is refused, not a crash in shape folding",
          "[fuzz][onnx]") {
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "class-token-shape-zero.onnx")); }),
             Contains("class-token-shape-zero.onnx"));
}

TEST_CASE("fuzz finding: a constant an Add reads that holds NaN is refused at its node, not cast to int8",
          "[fuzz][onnx]") {
  // A positional embedding with two NaN elements: add_constant rounded them to int8
  // (undefined behaviour, UBSan's report at stop 52). Weights had the check; constants not.
  CHECK_THAT(rejection([] { npusim::read_workload(regression("onnx", "nan-positional-embedding.onnx")); }),
             Contains("node '/Add' (Add)") && Contains("input 'pos' holds NaN"));
}
