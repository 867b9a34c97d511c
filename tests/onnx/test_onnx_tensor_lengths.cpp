// Every tensor of the bundled ONNX models with its raw_data one byte longer or
// shorter than its type and dims call for: libonnx 1.12's shape inference wrote past
// (or read past) its copy of such data (issue 28: 55 of 566 variants crashed). Each
// variant must be refused with one line and exit status 2, naming the tensor and both
// byte counts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <onnx/onnx_pb.h>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"

namespace {

// A tensor holding raw_data and the place a message must name it by.
struct RawTensor {
  onnx::TensorProto* tensor;
  std::string place;
};

std::string attribute_place(const onnx::NodeProto& n, const onnx::AttributeProto& a) {
  const std::string node = n.name().empty() ? "'" + n.output(0) + "' (" : "node '" + n.name() + "' (";
  return node + n.op_type() + "), attribute '" + a.name() + "'";
}

// Initializers and tensor attributes, inside subgraphs too, in a fixed order.
void collect(onnx::GraphProto& g, std::vector<RawTensor>& out) {
  for (auto& t : *g.mutable_initializer()) out.push_back({&t, "initializer '" + t.name() + "'"});
  for (auto& n : *g.mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_t()) out.push_back({a.mutable_t(), attribute_place(n, a)});
      for (auto& t : *a.mutable_tensors()) out.push_back({&t, attribute_place(n, a)});
      if (a.has_g()) collect(*a.mutable_g(), out);
      for (auto& sub : *a.mutable_graphs()) collect(sub, out);
    }
}

std::vector<RawTensor> raw_tensors(onnx::ModelProto& m) {
  std::vector<RawTensor> all;
  collect(*m.mutable_graph(), all);
  all.erase(std::remove_if(all.begin(), all.end(), [](const auto& r) { return !r.tensor->has_raw_data(); }),
            all.end());
  return all;
}

std::vector<std::string> bundled_models() {
  std::vector<std::string> models;
  for (const char* dir : {"tests/onnx/data", "tests/fuzz/corpus/onnx"})
    for (const auto& e : std::filesystem::directory_iterator(source_path(dir)))
      if (e.path().extension() == ".onnx") models.push_back(e.path().string());
  std::sort(models.begin(), models.end());
  return models;
}

onnx::ModelProto load(const std::string& path) {
  onnx::ModelProto m;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(m.ParseFromIstream(&in));
  return m;
}

// Writes `model` with tensor `index`'s raw_data changed by `delta` bytes; returns the
// byte count the original held (the count its type and dims call for: it was valid).
std::size_t write_mutant(onnx::ModelProto model, std::size_t index, int delta, const std::string& path) {
  std::string& raw = *raw_tensors(model)[index].tensor->mutable_raw_data();
  const std::size_t valid = raw.size();
  if (delta > 0) raw.push_back('\x7f');
  else raw.pop_back();
  std::ofstream out(path, std::ios::binary);
  REQUIRE(model.SerializeToOstream(&out));
  return valid;
}

}  // namespace

TEST_CASE("onnx: every bundled tensor with raw_data one byte long or short is exit 2 with one line",
          "[onnx][e2e][bad-input][heavy]") {
  const std::string dir = scratch_dir("onnx-tensor-lengths");
  int variants = 0;
  for (const auto& path : bundled_models()) {
    if (run_npusim({"validate", path}).status != 0) continue;  // a fuzz seed that is itself such a mutant
    onnx::ModelProto model = load(path);
    const std::size_t tensors = raw_tensors(model).size();
    for (std::size_t i = 0; i < tensors; ++i)
      for (const int delta : {+1, -1}) {
        const RawTensor original = raw_tensors(model)[i];
        if (delta < 0 && original.tensor->raw_data().empty()) continue;
        const std::string mutant = dir + "/mutant.onnx";
        const std::size_t valid = write_mutant(model, i, delta, mutant);
        INFO(path << ": " << original.place << ", " << delta << " byte");
        const NpusimResult r = run_npusim({"validate", mutant});
        check_refused(r, {"mutant.onnx: " + original.place + ": ", "needs " + std::to_string(valid) + " bytes of raw_data",
                          "but it holds " + std::to_string(valid + delta)});
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
        ++variants;
      }
  }
  CHECK(variants > 300);  // 178 tensors in the six models, each one byte longer and shorter
}
