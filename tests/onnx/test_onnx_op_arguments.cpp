// Issue 42: the audit's ONNX segfaults. A channel-shuffle Transpose whose perm names an axis
// outside the rank, a channel-shuffle Reshape to [1,2,-7,8,8], [9,-1,8,8] or [1,-1,8,7]
// (inside libonnx's shape inference), and a ViT class-token shape constant of [0,-1,-1] or
// [1,0,-1] (npusim's own shape folding) crashed validate, compile and run. Each is now one
// line naming the node (or, for a -1 that does not divide, the model) and exit 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "e2e/NpusimProcess.h"
#include "e2e/RefusedInput.h"

namespace {

onnx::ModelProto bundled(const std::string& name) {
  onnx::ModelProto m;
  std::ifstream in(source_path("tests/onnx/data/" + name), std::ios::binary);
  REQUIRE(m.ParseFromIstream(&in));
  return m;
}

onnx::NodeProto& node_named(onnx::ModelProto& m, const std::string& name) {
  for (auto& n : *m.mutable_graph()->mutable_node())
    if (n.name() == name) return n;
  FAIL("no node " << name);
  throw std::logic_error("unreachable");
}

void set_ints(onnx::NodeProto& n, const std::string& attribute, const std::vector<std::int64_t>& values) {
  for (auto& a : *n.mutable_attribute())
    if (a.name() == attribute) {
      a.clear_ints();
      for (auto v : values) a.add_ints(v);
      return;
    }
  FAIL("no attribute " << attribute);
}

// A Constant node's int64 value replaced by `values` (a list).
void set_constant(onnx::NodeProto& n, const std::vector<std::int64_t>& values) {
  onnx::TensorProto& t = *n.mutable_attribute(0)->mutable_t();
  t.clear_dims();
  t.add_dims(std::int64_t(values.size()));
  t.clear_raw_data();
  t.clear_int64_data();
  for (auto v : values) t.add_int64_data(v);
}

std::string saved(const onnx::ModelProto& m, const std::string& dir) {
  const std::string path = dir + "/model.onnx";
  std::ofstream out(path, std::ios::binary);
  REQUIRE(m.SerializeToOstream(&out));
  return path;
}

// validate, compile and run: each exit 2 with one line holding every phrase, nothing left.
void refused_everywhere(const onnx::ModelProto& m, const std::vector<std::string>& phrases) {
  const std::string dir = scratch_dir("onnx-op-arguments");
  const std::string model = saved(m, dir);
  for (const auto& command : {std::vector<std::string>{"validate", model},
                              {"compile", "-q", "--workload", model, "-o", dir + "/t.jsonl"},
                              {"run", "-q", "--workload", model, "--out", dir + "/run"}}) {
    const NpusimResult r = run_npusim(command);
    check_refused(r, phrases);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
  CHECK(!std::filesystem::exists(dir + "/run"));
  CHECK(!std::filesystem::exists(dir + "/t.jsonl"));
}

}  // namespace

TEST_CASE("onnx op arguments: a channel-shuffle Transpose whose perm leaves the rank is refused naming it",
          "[onnx][onnx-op-arguments][e2e][heavy]") {
  for (const std::vector<std::int64_t>& perm : std::vector<std::vector<std::int64_t>>{
           {0, 2, 1, 3, 5}, {0, 2, 1, 3, 9}, {0, 2, 1, 3, -1}, {0, 2, 1, 3, std::int64_t(1) << 40}, {0, 2, 1, 3, 3},
           {0, 2, 1, 3}}) {
    INFO("perm ending " << perm.back());
    onnx::ModelProto m = bundled("shuffle_blocks.onnx");
    set_ints(node_named(m, "/blocks/blocks.0/Transpose"), "perm", perm);
    refused_everywhere(m, {"model.onnx: node '/blocks/blocks.0/Transpose' (Transpose)", "attribute 'perm' is [",
                           "must name each axis of its rank-5 input once"});
  }
}

TEST_CASE("onnx op arguments: a channel-shuffle Reshape to an impossible shape is refused",
          "[onnx][onnx-op-arguments][e2e][heavy]") {
  SECTION("an extent below -1, naming the node") {
    onnx::ModelProto m = bundled("shuffle_blocks.onnx");
    set_constant(node_named(m, "/blocks/blocks.0/Constant"), {1, 2, -7, 8, 8});
    refused_everywhere(m, {"node '/blocks/blocks.0/Reshape' (Reshape)", "its shape [1, 2, -7, 8, 8] has -7"});
  }
  SECTION("two -1s, naming the node") {
    onnx::ModelProto m = bundled("shuffle_blocks.onnx");
    set_constant(node_named(m, "/blocks/blocks.0/Constant_1"), {1, -1, -1, 8});
    refused_everywhere(m, {"node '/blocks/blocks.0/Reshape_1' (Reshape)", "has more than one -1"});
  }
  SECTION("a -1 that does not divide the input: the model, as the library cannot infer it") {
    for (const std::vector<std::int64_t>& shape :
         std::vector<std::vector<std::int64_t>>{{9, -1, 8, 8}, {1, -1, 8, 7}, {5, -1, 8, 8}}) {
      onnx::ModelProto m = bundled("shuffle_blocks.onnx");
      set_constant(node_named(m, "/blocks/blocks.0/Constant_1"), shape);
      refused_everywhere(m, {"model.onnx: "});
    }
  }
}

TEST_CASE("onnx op arguments: a ViT class-token shape constant with a 0 is refused, not a crash in shape folding",
          "[onnx][onnx-op-arguments][e2e]") {
  for (const std::vector<std::int64_t>& shape : std::vector<std::vector<std::int64_t>>{{0, -1, -1}, {1, 0, -1}}) {
    onnx::ModelProto m = bundled("class_token_vit.onnx");
    set_constant(node_named(m, "/Constant_5"), shape);
    refused_everywhere(m, {"model.onnx: "});
  }
}

TEST_CASE("onnx op arguments: axes outside the rank and empty constants are refused naming the node",
          "[onnx][onnx-op-arguments][e2e]") {
  SECTION("a Concat axis") {
    onnx::ModelProto m = bundled("shuffle_blocks.onnx");
    for (auto& a : *node_named(m, "/blocks/blocks.0/Concat").mutable_attribute()) a.set_i(5);
    refused_everywhere(m, {"node '/blocks/blocks.0/Concat' (Concat)", "attribute 'axis' is 5"});
  }
  SECTION("an empty Reshape target") {
    onnx::ModelProto m = bundled("shuffle_blocks.onnx");
    set_constant(node_named(m, "/blocks/blocks.0/Constant"), {});
    refused_everywhere(m, {"node '/blocks/blocks.0/Reshape' (Reshape)", "is an empty constant"});
  }
  SECTION("a Gather of a shape outside its dimensions") {
    onnx::ModelProto m = bundled("class_token_vit.onnx");
    set_constant(node_named(m, "/encoder/self_attn/Constant"), {7});
    refused_everywhere(m, {"node '/encoder/self_attn/Gather' (Gather)", "index 7 is outside the 3 dimensions"});
  }
}

TEST_CASE("onnx op arguments: the bundled models still load (the checks refuse none of their nodes)",
          "[onnx][onnx-op-arguments][e2e][heavy]") {
  for (const auto& entry : std::filesystem::directory_iterator(source_path("tests/onnx/data"))) {
    INFO(entry.path());
    const NpusimResult r = run_npusim({"validate", entry.path().string()});
    INFO(r.output);
    CHECK(r.status == 0);
  }
}
