#include "apps/frontend/onnx/OnnxModel.h"

#include "apps/frontend/onnx/OnnxConstantFolding.h"
#include "apps/frontend/onnx/OnnxShapeFolding.h"
#include "apps/frontend/onnx/OnnxNodeChecks.h"
#include "apps/frontend/onnx/OnnxTensorChecks.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "sim/common/ForkedChild.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"

namespace npusim {

namespace {

std::string dims_text(const std::vector<std::int64_t>& dims) { return fmt::format("{}", fmt::join(dims, "x")); }

std::int64_t default_domain_opset(const onnx::ModelProto& m, const std::string& file) {
  for (const auto& op : m.opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx") return op.version();
  throw InputError(file, "opset_import", "the model imports no version of the default ONNX operator set");
}

// A graph input's dimensions: fixed ones from the file, dynamic ones from --input-shape.
void fix_input_shape(onnx::ValueInfoProto& input, const InputShapes& given, const std::string& file) {
  auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
  const auto it = given.find(input.name());
  const std::string place = fmt::format("graph input '{}'", input.name());
  if (it != given.end()) {
    if (std::int64_t(it->second.size()) != shape->dim_size())
      throw InputError(file, place, fmt::format("--input-shape gives {} dimensions ({}) but the input has {}",
                                                it->second.size(), dims_text(it->second), shape->dim_size()));
    for (int i = 0; i < shape->dim_size(); ++i) {
      auto* d = shape->mutable_dim(i);
      if (d->has_dim_value() && d->dim_value() != it->second[i])
        throw InputError(file, place, fmt::format("--input-shape gives {} for dimension {}, which the model fixes at {}",
                                                  it->second[i], i, d->dim_value()));
      d->set_dim_value(it->second[i]);
    }
    return;
  }
  for (int i = 0; i < shape->dim_size(); ++i)
    if (!shape->dim(i).has_dim_value() || shape->dim(i).dim_value() <= 0)
      throw InputError(file, place,
                       fmt::format("dimension {} ('{}') is dynamic; give every dimension with --input-shape {}=NxCxHxW",
                                   i, shape->dim(i).dim_param(), input.name()));
}

std::vector<std::int64_t> known_dims(const onnx::TypeProto& type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return {};
  std::vector<std::int64_t> dims;
  for (const auto& d : type.tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return {};
    dims.push_back(d.dim_value());
  }
  return dims;
}

void collect_constants(OnnxModel& m) {
  for (const auto& t : m.graph().initializer()) m.constants[t.name()] = &t;
  for (const auto& n : m.graph().node()) {
    // Exporters share one initializer between users through Identity nodes.
    if (n.op_type() == "Identity" && n.input_size() == 1 && m.constant(n.input(0))) {
      m.constants[n.output(0)] = m.constant(n.input(0));
      continue;
    }
    if (n.op_type() != "Constant") continue;
    if (n.attribute_size() != 1 || n.attribute(0).name() != "value")
      m.fail(n, "only a Constant with a 'value' tensor is supported");
    m.constant_nodes.push_back(n.attribute(0).t());
    m.constants[n.output(0)] = &m.constant_nodes.back();
  }
}

// Parses straight from the file through a 1 MiB window: the weights are copied once, into
// the model, instead of through a whole-file string first (100 MB more for ResNet-50).
void parse_model_file(onnx::ModelProto& proto, const std::string& path) {
  std::ifstream in = open_input_file(path);
  google::protobuf::io::IstreamInputStream stream(&in, 1 << 20);
  if (proto.ParseFromZeroCopyStream(&stream) && !in.bad()) return;
  std::error_code ec;
  throw InputError(path, "", fmt::format("not a readable ONNX model: the {} bytes do not parse as an ONNX "
                                         "ModelProto (truncated or not ONNX)", std::filesystem::file_size(path, ec)));
}

}  // namespace

std::string node_place(const onnx::NodeProto& node) {
  return node.name().empty() ? fmt::format("node with output '{}' ({})", node.output_size() ? node.output(0) : "",
                                           node.op_type())
                             : fmt::format("node '{}' ({})", node.name(), node.op_type());
}

const onnx::TensorProto* OnnxModel::constant(const std::string& name) const {
  const auto it = constants.find(name);
  return it == constants.end() ? nullptr : it->second;
}

const std::vector<std::int64_t>& OnnxModel::shape(const std::string& value, const onnx::NodeProto& node) const {
  const auto it = shapes.find(value);
  if (it == shapes.end()) fail(node, fmt::format("the shape of '{}' could not be inferred", value));
  return it->second;
}

void OnnxModel::fail(const onnx::NodeProto& node, const std::string& reason) const {
  throw InputError(file, node_place(node), reason);
}

std::unique_ptr<OnnxModel> load_onnx_model(const std::string& path, const InputShapes& given) {
  auto owner = std::make_unique<OnnxModel>();
  OnnxModel& m = *owner;
  m.file = path;
  parse_model_file(m.proto, path);
  m.opset = default_domain_opset(m.proto, path);
  if (m.opset < kMinOnnxOpset || m.opset > kMaxOnnxOpset)
    throw InputError(path, "opset_import", fmt::format("opset {} is outside the supported range {} to {}; "
                                                       "re-export with opset_version in that range",
                                                       m.opset, kMinOnnxOpset, kMaxOnnxOpset));
  check_tensor_data(m.proto, path);  // before the library reads any of it
  try {
    onnx::checker::check_model(m.proto);
  } catch (const std::exception& e) {
    throw InputError(path, "", fmt::format("the ONNX checker rejects the model: {}", joined_lines(e.what())));
  }
  collect_constants(m);
  auto* graph = m.proto.mutable_graph();
  for (const auto& shape : given) {
    const std::string& name = shape.first;  // not a structured binding: clang 14 cannot capture one
    const auto& inputs = graph->input();
    if (m.constants.count(name) || std::none_of(inputs.begin(), inputs.end(), [&](const auto& i) { return i.name() == name; }))
      throw InputError(path, "--input-shape", fmt::format("the model has no activation input '{}'", name));
  }
  for (auto& input : *graph->mutable_input()) {
    if (m.constants.count(input.name())) continue;
    if (!m.input.empty())
      throw InputError(path, fmt::format("graph input '{}'", input.name()),
                       fmt::format("the model has a second activation input (the first is '{}'); only one is "
                                   "supported", m.input));
    m.input = input.name();
    fix_input_shape(input, given, path);
  }
  if (m.input.empty()) throw InputError(path, "graph", "the model has no activation input");
  // Outputs' declared shapes may carry symbols the inferred ones would clash with.
  for (auto& out : *graph->mutable_output()) out.mutable_type()->mutable_tensor_type()->clear_shape();
  graph->clear_value_info();
  check_nodes_before_inference(m);
  infer_shapes(m);
  fold_constants(m);
  infer_folded_shapes(m);
  return owner;
}

namespace {

// libonnx 1.12's shape inference trusts more than the node checks before it can cover (a
// Reshape whose -1 does not divide the input, say, which needs every extent upstream): it is
// run first in a child process, and if it crashes there the model is refused, so an input
// never crashes npusim. The node checks (OnnxNodeChecks.h) name the node for every case known.
void infer_in_child_first(const OnnxModel& m) {
  const int status = status_of_forked([&] {  // the child's own copy of the model: changing it changes nothing here
    auto& own = const_cast<onnx::ModelProto&>(m.proto);
    onnx::shape_inference::InferShapes(own, onnx::OpSchemaRegistry::Instance(), onnx::ShapeInferenceOptions(true, 1, true));
  });
  if (status == -1 || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) return;
  throw InputError(m.file, "", fmt::format("the onnx library's shape inference crashed on this model ({}): a node's "
                                           "attributes or constant inputs do not fit the shapes it has",
                                           WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "it failed"));
}

}  // namespace

void infer_shapes(OnnxModel& m) {
  auto* graph = m.proto.mutable_graph();
  infer_in_child_first(m);
  try {
    onnx::shape_inference::InferShapes(m.proto, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions(true, 1, true));
  } catch (const std::exception& e) {
    throw InputError(m.file, "", fmt::format("shape inference failed: {}", joined_lines(e.what())));
  }
  for (const auto* list : {&graph->input(), &graph->value_info(), &graph->output()})
    for (const auto& v : *list)
      if (auto dims = known_dims(v.type()); !dims.empty()) m.shapes[v.name()] = dims;
  for (const auto& [name, t] : m.constants) m.shapes[name] = {t->dims().begin(), t->dims().end()};
}

}  // namespace npusim
