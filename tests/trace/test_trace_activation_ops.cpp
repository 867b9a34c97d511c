// The activation, mul and mask ops in a hand-written trace: what their checks accept and
// refuse (models/vector_unit/ActivationOps.cpp).
#include <catch2/catch.hpp>

#include "sim/common/InputError.h"
#include "sim/trace/TraceReader.h"
#include "trace/TraceTestSupport.h"

using namespace npusim;
using namespace npusim::testing;
using Json = nlohmann::json;

namespace {

Json mul_line(std::vector<std::uint64_t> rhs) {
  Json line = instruction(1, "mul", {tensor("nram", 0, {1, 4, 4, 8}), tensor("nram", 128, std::move(rhs))},
                          {tensor("nram", 256, {1, 4, 4, 8})});
  line["params"] = {{"shift", 7}};
  return line;
}

}  // namespace

TEST_CASE("trace: activation ops, mul with a per-channel gate and mask are checked like the vector unit's others",
          "[trace][activation]") {
  for (const char* op : {"sigmoid", "hardsigmoid", "hardswish", "silu", "tanh"}) {
    Json line = relu_line(1);
    line["op"] = op;
    line["params"] = {{"frac_bits", 3}};
    CHECK(trace_refusal(line).empty());
    line["params"] = {{"frac_bits", 8}};
    CHECK_THAT(trace_refusal(line), Catch::Contains("params.frac_bits") && Catch::Contains("from 0 to 7"));
  }
  CHECK(trace_refusal(mul_line({1, 4, 4, 8})).empty());
  CHECK(trace_refusal(mul_line({1, 1, 1, 8})).empty());
  CHECK_THAT(trace_refusal(mul_line({1, 2, 2, 8})), Catch::Contains("inputs[1].shape") && Catch::Contains("[n, 1, 1, c]"));
  Json mask = add_line(1);
  mask["op"] = "mask";
  mask["params"] = {{"fill", -128}};
  CHECK(trace_refusal(mask).empty());
  mask["params"] = {{"fill", 128}};
  CHECK_THAT(trace_refusal(mask), Catch::Contains("params.fill"));
}
