#include "onnx/OnnxTestGraph.h"

#include <cmath>
#include <fstream>

namespace {

void set_dims(onnx::ValueInfoProto& v, const OnnxTestGraph::Dims& dims) {
  auto* t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

}  // namespace

OnnxTestGraph::OnnxTestGraph(Dims input, std::int64_t opset, const std::string& input_name) {
  weight = [](std::mt19937& rng) { return std::uniform_real_distribution<float>(-1.0f / 16, 1.0f / 16)(rng); };
  model.set_ir_version(8);
  auto* op = model.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  model.mutable_graph()->set_name("test");
  auto* in = model.mutable_graph()->add_input();
  in->set_name(input_name);
  set_dims(*in, input);
}

std::vector<float> OnnxTestGraph::draw(std::int64_t count) {
  std::vector<float> v(static_cast<std::size_t>(count));
  for (auto& x : v) x = weight(rng_);
  return v;
}

std::vector<float> OnnxTestGraph::draw_bias(std::int64_t count) {
  std::vector<float> v(static_cast<std::size_t>(count));
  for (auto& x : v) x = bias(rng_);
  return v;
}

void OnnxTestGraph::ints(onnx::NodeProto& n, const char* name, const Dims& values) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (auto v : values) a->add_ints(v);
}

onnx::NodeProto& OnnxTestGraph::node(const std::string& op, const std::string& name,
                                     const std::vector<std::string>& inputs) {
  auto* n = model.mutable_graph()->add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (const auto& i : inputs) n->add_input(i);
  n->add_output(name + ".out");
  return *n;
}

std::string OnnxTestGraph::initializer(const std::string& name, const Dims& dims, const std::vector<float>& values) {
  auto* t = model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t->add_dims(d);
  for (float v : values) t->add_float_data(v);
  return name;
}

std::string OnnxTestGraph::conv(const std::string& name, const std::string& in, std::int64_t ci, std::int64_t co,
                                std::int64_t k, std::int64_t stride, std::int64_t pad, std::int64_t group,
                                std::int64_t dilation) {
  const std::string w = initializer(name + ".w", {co, ci / group, k, k}, draw(co * (ci / group) * k * k));
  auto& n = bias ? node("Conv", name, {in, w, initializer(name + ".b", {co}, draw_bias(co))}) : node("Conv", name, {in, w});
  ints(n, "kernel_shape", {k, k});
  ints(n, "strides", {stride, stride});
  ints(n, "pads", {pad, pad, pad, pad});
  ints(n, "dilations", {dilation, dilation});
  if (group != 1) {
    auto* a = n.add_attribute();
    a->set_name("group");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(group);
  }
  return n.output(0);
}

std::string OnnxTestGraph::batch_norm(const std::string& name, const std::string& in, std::int64_t c) {
  std::uniform_real_distribution<float> gamma(0.5f, 1.5f), var(0.5f, 2.0f);
  // Mean and beta are 0 unless the graph draws biases.
  std::vector<float> g, v, zero(std::size_t(c), 0.0f);
  for (std::int64_t i = 0; i < c; ++i) g.push_back(gamma(rng_)), v.push_back(var(rng_));
  const std::vector<float> beta = bias ? draw_bias(c) : zero, mean = bias ? draw_bias(c) : zero;
  return node("BatchNormalization", name,
              {in, initializer(name + ".g", {c}, g), initializer(name + ".b", {c}, beta),
               initializer(name + ".m", {c}, mean), initializer(name + ".v", {c}, v)})
      .output(0);
}

std::string OnnxTestGraph::unary(const std::string& op, const std::string& name, const std::string& in) {
  return node(op, name, {in}).output(0);
}

std::string OnnxTestGraph::clip6(const std::string& name, const std::string& in) {
  return node("Clip", name, {in, initializer(name + ".lo", {}, {0.0f}), initializer(name + ".hi", {}, {6.0f})})
      .output(0);
}

std::string OnnxTestGraph::add(const std::string& name, const std::string& a, const std::string& b) {
  return node("Add", name, {a, b}).output(0);
}

std::string OnnxTestGraph::pool(const std::string& op, const std::string& name, const std::string& in, std::int64_t k,
                                std::int64_t stride, std::int64_t pad) {
  auto& n = node(op, name, {in});
  if (op == "GlobalAveragePool" || op == "GlobalMaxPool") return n.output(0);
  ints(n, "kernel_shape", {k, k});
  ints(n, "strides", {stride, stride});
  ints(n, "pads", {pad, pad, pad, pad});
  return n.output(0);
}

std::string OnnxTestGraph::flatten(const std::string& name, const std::string& in) {
  return node("Flatten", name, {in}).output(0);
}

std::string OnnxTestGraph::gemm(const std::string& name, const std::string& in, std::int64_t k, std::int64_t n) {
  const std::string w = initializer(name + ".w", {n, k}, draw(n * k));
  auto& g = bias ? node("Gemm", name, {in, w, initializer(name + ".b", {n}, draw_bias(n))}) : node("Gemm", name, {in, w});
  auto* a = g.add_attribute();
  a->set_name("transB");
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(1);
  return g.output(0);
}

std::string OnnxTestGraph::matmul(const std::string& name, const std::string& in, std::int64_t k, std::int64_t n) {
  const std::string product = node("MatMul", name, {in, initializer(name + ".w", {k, n}, draw(k * n))}).output(0);
  if (!bias) return product;
  return node("Add", name + ".bias", {product, initializer(name + ".b", {n}, draw_bias(n))}).output(0);
}

void OnnxTestGraph::output(const std::string& value) {
  auto* o = model.mutable_graph()->add_output();
  o->set_name(value);
  o->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  o->mutable_type()->mutable_tensor_type()->mutable_shape();  // the checker wants one, even empty
}

std::string OnnxTestGraph::save(const std::string& path) const {
  std::ofstream f(path, std::ios::binary);
  model.SerializeToOstream(&f);
  return path;
}
