// The upsample op in a hand-written trace: what its checks accept and refuse
// (models/vector_unit/UpsampleOps.cpp).
#include <catch2/catch.hpp>

#include "sim/common/InputError.h"
#include "sim/trace/TraceReader.h"
#include "trace/TraceTestSupport.h"

using namespace npusim;
using namespace npusim::testing;
using Json = nlohmann::json;

namespace {

// Output rows 4..7 of an 8 x 8 -> 16 x 16 bilinear upsample, from input rows `in_row0`.. (3 rows).
Json upsample_line(std::uint64_t in_row0) {
  Json line = instruction(1, "upsample", {tensor("nram", 0, {1, 3, 8, 4})}, {tensor("nram", 256, {1, 4, 16, 4})});
  line["params"] = {{"mode", "bilinear"}, {"coordinates", "half_pixel"}, {"map", {8, 8, 16, 16}},
                    {"rows", {in_row0, 4}}};
  return line;
}

}  // namespace

TEST_CASE("trace: an upsample band must read only its input rows, in a known mode", "[trace][upsample]") {
  // Output rows 4..7 read input rows 1.75..3.25: rows 1 to 4 would be needed; 1..3 lack row 4.
  CHECK_THAT(trace_refusal(upsample_line(1)), Catch::Contains("inputs[0].shape") && Catch::Contains("input rows 1 to 4"));
  Json ok = upsample_line(2);  // rows 2 to 4 lack row 1
  CHECK_THAT(trace_refusal(ok), Catch::Contains("outside the band"));
  ok["inputs"][0]["shape"] = {1, 4, 8, 4};
  ok["params"]["rows"] = {1, 4};
  CHECK(trace_refusal(ok).empty());
  ok["params"]["mode"] = "bicubic";
  CHECK_THAT(trace_refusal(ok), Catch::Contains("params.mode"));
  ok["params"]["mode"] = "nearest";
  ok["params"]["coordinates"] = "tf_crop_and_resize";
  CHECK_THAT(trace_refusal(ok), Catch::Contains("params.coordinates"));
}
