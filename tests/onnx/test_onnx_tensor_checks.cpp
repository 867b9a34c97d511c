// check_tensor_data: every tensor of an ONNX file must hold exactly the data its type
// and dims call for before libonnx reads it (issue 28: its ParseData overflowed the
// heap on an int64 raw_data one byte too long).
#include <catch2/catch.hpp>

#include <string>

#include <onnx/onnx_pb.h>

#include "apps/frontend/onnx/OnnxTensorChecks.h"
#include "sim/common/InputError.h"

using Catch::Matchers::Contains;

namespace {

onnx::TensorProto tensor(int type, std::vector<std::int64_t> dims) {
  onnx::TensorProto t;
  t.set_name("t");
  t.set_data_type(type);
  for (auto d : dims) t.add_dims(d);
  return t;
}

std::string refusal(const onnx::TensorProto& t) {
  try {
    npusim::check_tensor_data(t, "m.onnx", "initializer 't'");
  } catch (const npusim::InputError& e) {
    return e.what();
  }
  return "accepted";
}

std::string refusal(const onnx::ModelProto& m) {
  try {
    npusim::check_tensor_data(m, "m.onnx");
  } catch (const npusim::InputError& e) {
    return e.what();
  }
  return "accepted";
}

onnx::NodeProto& constant_node(onnx::GraphProto& g, const onnx::TensorProto& value) {
  auto& n = *g.add_node();
  n.set_name("k");
  n.set_op_type("Constant");
  n.add_output("k_out");
  auto& a = *n.add_attribute();
  a.set_name("value");
  a.set_type(onnx::AttributeProto::TENSOR);
  *a.mutable_t() = value;
  return n;
}

}  // namespace

TEST_CASE("onnx tensors: raw_data must be exactly elements times the type's width", "[onnx][bad-input]") {
  auto t = tensor(onnx::TensorProto::INT64, {2, 3});
  t.set_raw_data(std::string(48, '\0'));
  CHECK(refusal(t) == "accepted");
  t.set_raw_data(std::string(47, '\0'));
  CHECK(refusal(t) == "m.onnx: initializer 't': a tensor of type INT64 and shape 2x3 needs 48 bytes of raw_data "
                      "(6 x 8 bytes), but it holds 47");
  t.set_raw_data(std::string(49, '\0'));
  CHECK_THAT(refusal(t), Contains("needs 48 bytes") && Contains("holds 49"));
  auto half = tensor(onnx::TensorProto::FLOAT16, {});
  half.set_raw_data(std::string(3, '\0'));
  CHECK_THAT(refusal(half), Contains("a scalar tensor of type FLOAT16 needs 2 bytes"));
  auto complex = tensor(onnx::TensorProto::COMPLEX128, {2});
  complex.set_raw_data(std::string(32, '\0'));
  CHECK(refusal(complex) == "accepted");
  auto empty = tensor(onnx::TensorProto::FLOAT, {4, 0});
  empty.set_raw_data("");
  CHECK(refusal(empty) == "accepted");
  empty.set_raw_data("x");
  CHECK_THAT(refusal(empty), Contains("needs 0 bytes of raw_data"));
}

TEST_CASE("onnx tensors: a typed field must hold one value per element, in the type's field", "[onnx][bad-input]") {
  auto t = tensor(onnx::TensorProto::INT64, {3});
  for (int i = 0; i < 2; ++i) t.add_int64_data(i);
  CHECK_THAT(refusal(t), Contains("needs 3 values in int64_data (24 bytes), but it holds 2 (16 bytes)"));
  t.add_int64_data(2);
  CHECK(refusal(t) == "accepted");
  t.add_float_data(1.0f);
  CHECK_THAT(refusal(t), Contains("holds 1 values in float_data; its elements belong in int64_data or raw_data"));
  auto complex = tensor(onnx::TensorProto::COMPLEX64, {2});
  for (int i = 0; i < 3; ++i) complex.add_float_data(1.0f);
  CHECK_THAT(refusal(complex), Contains("needs 4 values in float_data (16 bytes)"));
  auto none = tensor(onnx::TensorProto::FLOAT, {5});
  CHECK_THAT(refusal(none), Contains("needs 5 values in float_data (20 bytes), but it holds 0 (0 bytes)"));
  auto both = tensor(onnx::TensorProto::FLOAT, {1});
  both.set_raw_data(std::string(4, '\0'));
  both.add_float_data(1.0f);
  CHECK_THAT(refusal(both), Contains("holds data in both raw_data and float_data"));
  auto strings = tensor(onnx::TensorProto::STRING, {2});
  strings.set_raw_data("ab");
  CHECK_THAT(refusal(strings), Contains("type STRING and shape 2 cannot hold raw_data"));
}

TEST_CASE("onnx tensors: types, dims and data places the library cannot take are refused", "[onnx][bad-input]") {
  CHECK_THAT(refusal(tensor(onnx::TensorProto::UNDEFINED, {1})), Contains("has no ONNX element type"));
  CHECK_THAT(refusal(tensor(99, {1})), Contains("type 99 and shape 1 has no ONNX element type"));
  CHECK_THAT(refusal(tensor(onnx::TensorProto::FLOAT, {2, -1})), Contains("has a negative dimension"));
  CHECK_THAT(refusal(tensor(onnx::TensorProto::INT8, {std::int64_t(1) << 40, std::int64_t(1) << 40})),
             Contains("more elements than any ONNX file can hold"));
  auto external = tensor(onnx::TensorProto::FLOAT, {1});
  external.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* entry = external.add_external_data();
  entry->set_key("location");
  entry->set_value("../../etc/passwd");
  CHECK_THAT(refusal(external), Contains("external data is not supported"));
}

TEST_CASE("onnx tensors: every tensor of the model is checked, in Constants, subgraphs and functions",
          "[onnx][bad-input]") {
  auto bad = tensor(onnx::TensorProto::INT64, {1});
  bad.set_raw_data(std::string(9, '\0'));
  SECTION("a Constant node's value") {
    onnx::ModelProto m;
    constant_node(*m.mutable_graph(), bad);
    CHECK(refusal(m) == "m.onnx: node 'k' (Constant), attribute 'value': a tensor of type INT64 and shape 1 needs "
                        "8 bytes of raw_data (1 x 8 bytes), but it holds 9");
  }
  SECTION("a Constant inside an If branch") {
    onnx::ModelProto m;
    auto& branch = *m.mutable_graph()->add_node();
    branch.set_name("if");
    branch.set_op_type("If");
    auto& a = *branch.add_attribute();
    a.set_name("then_branch");
    a.set_type(onnx::AttributeProto::GRAPH);
    constant_node(*a.mutable_g(), bad);
    CHECK_THAT(refusal(m), Contains("m.onnx: node 'if' (If), attribute 'then_branch': node 'k' (Constant)"));
  }
  SECTION("an initializer of a training graph and a node of a function") {
    onnx::ModelProto m;
    *m.add_training_info()->mutable_initialization()->add_initializer() = bad;
    CHECK_THAT(refusal(m), Contains("training initialization: initializer 't'"));
    onnx::ModelProto f;
    auto& function = *f.add_functions();
    function.set_name("f");
    auto& n = *function.add_node();
    n.set_op_type("Constant");
    n.add_output("c");
    auto& a = *n.add_attribute();
    a.set_name("value");
    *a.mutable_t() = bad;
    CHECK_THAT(refusal(f), Contains("function 'f': node with output 'c' (Constant), attribute 'value'"));
  }
  SECTION("sparse tensors") {
    onnx::ModelProto m;
    m.mutable_graph()->add_sparse_initializer()->mutable_values()->set_name("s");
    CHECK_THAT(refusal(m), Contains("sparse initializer 's': sparse tensors are not supported"));
  }
}
