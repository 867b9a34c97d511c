// The checks every workload reader shares (apps/frontend/workload/LayerChecks.h): a
// layer imported from ONNX fails with the message the same layer written as JSON
// gets, and the "engine" field accepts exactly the engines the lowerings registered.
#include <catch2/catch.hpp>

#include <string>

#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "onnx/OnnxTestGraph.h"
#include "sim/common/InputError.h"

using namespace npusim;

namespace {

// The message of the InputError `read` throws, without its leading "<file>: ".
template <class Read>
std::string reason_of(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    const std::string text = e.what();
    return text.substr(text.find(": ") + 2);
  }
  return "(no error)";
}

std::string json_reason(const std::string& json) {
  return reason_of([&] { parse_workload_json(json, "w.json"); });
}

std::string onnx_reason(OnnxTestGraph& g, const std::string& name) {
  const std::string path = g.save(scratch_dir(name) + "/m.onnx");
  return reason_of([&] { read_workload(path); });
}

}  // namespace

TEST_CASE("front end: an ONNX conv padded by its whole kernel fails as its JSON twin does", "[onnx][input]") {
  OnnxTestGraph g({1, 3, 8, 8});
  g.output(g.conv("c", "input", 3, 4, 3, 1, 3));
  const std::string expected =
      json_reason(R"({"input":{"h":8,"w":8,"c":3},"layers":[{"name":"c","type":"conv","co":4,"k":3,"padding":3}]})");
  CHECK_THAT(expected, Catch::StartsWith("layers[0] (c), field 'padding': top padding 3 is not smaller"));
  CHECK(onnx_reason(g, "fe-onnx-pad") == expected);
}

TEST_CASE("front end: an ONNX softmax followed by a Relu fails as its JSON twin does", "[onnx][input]") {
  OnnxTestGraph g({1, 4, 8});
  g.output(g.unary("Relu", "r", g.unary("Softmax", "sm", "input")));
  const std::string expected =
      json_reason(R"({"input":{"h":4,"w":1,"c":8},"layers":[{"name":"sm","type":"softmax","relu":true}]})");
  CHECK_THAT(expected, Catch::StartsWith("layers[0] (sm), field 'relu': is not fused into softmax"));
  CHECK(onnx_reason(g, "fe-onnx-relu") == expected);
}

TEST_CASE("front end: a layer's engine is one a lowering registered, listed by name", "[compiler][input]") {
  const std::string head = R"({"input":{"h":8,"w":8,"c":4},"layers":[{"name":"c","type":"conv","co":8,"k":3,"engine":)";
  CHECK(json_reason(head + R"("gpu"}]})") ==
        "layers[0] (c), field 'engine': must be \"matrix\" (the Wfold unit), \"shader\" (the GPU-style shader core) or "
        "\"sparse\" (the sparse tensor cluster), got 'gpu'");
  for (const char* engine : {"\"matrix\"", "\"shader\"", "\"sparse\""})
    CHECK(json_reason(head + engine + "}]}") == "(no error)");
}
