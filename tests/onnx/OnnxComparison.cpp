// Functional runs of test graphs compared with OnnxReference (OnnxComparison.h).
#include "onnx/OnnxComparison.h"

#include <catch2/catch.hpp>

#include <cmath>

#include "e2e/NpusimProcess.h"

void set_ints(onnx::NodeProto& n, const char* name, const OnnxTestGraph::Dims& values) {
  auto* a = n.add_attribute();
  a->set_name(name), a->set_type(onnx::AttributeProto::INTS);
  for (auto v : values) a->add_ints(v);
}

void set_int(onnx::NodeProto& n, const char* name, std::int64_t value) {
  auto* a = n.add_attribute();
  a->set_name(name), a->set_type(onnx::AttributeProto::INT), a->set_i(value);
}

std::string int64_initializer(OnnxTestGraph& g, const std::string& name, const OnnxTestGraph::Dims& values) {
  auto* t = g.model.mutable_graph()->add_initializer();
  t->set_name(name), t->set_data_type(onnx::TensorProto::INT64), t->add_dims(std::int64_t(values.size()));
  for (auto v : values) t->add_int64_data(v);
  return name;
}

OnnxTestGraph exact_graph(OnnxTestGraph::Dims input) {
  OnnxTestGraph g(std::move(input));
  g.weight = [](std::mt19937& rng) { return float(std::uniform_int_distribution<int>(-127, 127)(rng)) / 1024.0f; };
  return g;
}

// npusim's NHWC int8 tensor as the reference's NCHW (or [n, k]) order.
std::vector<double> nchw(const npusim::NpyArray& a) {
  const auto n = a.shape[0], h = a.shape[1], w = a.shape[2], c = a.shape[3];
  std::vector<double> out(a.data.size());
  for (std::uint64_t b = 0; b < n; ++b)
    for (std::uint64_t y = 0; y < h; ++y)
      for (std::uint64_t x = 0; x < w; ++x)
        for (std::uint64_t k = 0; k < c; ++k)
          out[((b * c + k) * h + y) * w + x] = double(std::int8_t(a.data[((b * h + y) * w + x) * c + k]));
  return out;
}

Comparison run_and_compare(OnnxTestGraph& g, const std::map<std::string, std::string>& layers, bool exact,
                           const std::string& name) {
  const std::string dir = scratch_dir(name);
  const auto r = run_npusim({"run", "--quiet", "--functional", "--workload", g.save(dir + "/m.onnx"), "--out",
                             dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const npusim::NpyArray input = npusim::read_npy(dir + "/run/tensors/input.npy");
  OnnxTestGraph::Dims dims;
  for (const auto& d : g.model.graph().input(0).type().tensor_type().shape().dim()) dims.push_back(d.dim_value());
  OnnxReference::Value x{dims, nchw(input), std::vector<double>(input.data.size(), 0.0)};
  const OnnxReference ref(g.model, x, exact);
  Comparison c;
  double error_sum = 0, bound_sum = 0;
  for (const auto& [layer, value] : layers) {
    INFO("layer " << layer);
    const auto got = nchw(npusim::read_npy(dir + "/run/tensors/" + layer + ".npy"));
    const auto& want = ref.values.at(value);
    REQUIRE(got.size() == want.v.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double error = std::fabs(got[i] - want.v[i]);
      if (exact)
        REQUIRE(got[i] == want.v[i]);
      else
        REQUIRE(error <= want.bound[i] + 1e-9);
      c.max_error = std::max(c.max_error, error);
      error_sum += error;
      bound_sum += want.bound[i];
      c.nonzero += got[i] != 0;
    }
    c.elements += got.size();
  }
  c.mean_error = error_sum / double(c.elements);
  c.mean_bound = bound_sum / double(c.elements);
  return c;
}

nlohmann::json report_rows(const std::string& model, const std::string& dir) {
  const auto r = run_npusim({"run", "--quiet", "--workload", model, "--out", dir + "/timing"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(read_text(dir + "/timing/report.json"))["workload"]["rows"];
}

nlohmann::json row_named(const nlohmann::json& rows, const std::string& name) {
  for (const auto& row : rows)
    if (row["name"] == name) return row;
  FAIL("no layer " << name);
  return {};
}
