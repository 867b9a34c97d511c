#include <catch2/catch.hpp>

#include "sim/tensor/Npy.h"
#include "sim/trace/OpCatalog.h"
#include "sim/trace/TraceReader.h"
#include "trace/TraceTestSupport.h"

using namespace npusim;
using namespace npusim::testing;

TEST_CASE("a LOAD-RELU-STORE trace parses to the right instruction fields", "[trace]") {
  ScratchDir dir;
  auto relu = relu_line(1);
  relu["core"] = 1;
  relu["engine"] = "vector";
  relu["inputs"][0]["layout"] = "NCHW";
  relu["inputs"][0]["tags"] = {"ifmap"};
  relu["deps"] = {0};
  auto store = store_line(5);
  store["deps"] = {{{"id", 1}, {"mode", "staged"}, {"granularity", "rows"}}, {{"id", 0}, {"mode", "two_phase"}}};
  auto path = dir.write_lines("t.jsonl", {kHeaderLine, load_line(0).dump(), "", "   ", relu.dump(), store.dump()});

  TraceReader reader(path, small_config());
  CHECK(reader.header().inputs.empty());
  Instruction ins;

  REQUIRE(reader.next(ins));
  CHECK(ins.id == 0);
  CHECK(ins.op == "load");
  CHECK(ins.engine == "load");  // defaults to the op's engine
  CHECK(ins.core == 0);
  CHECK(ins.line == 2);
  REQUIRE(ins.inputs.size() == 1);
  CHECK(ins.inputs[0].space == AddressSpace::Dram);
  CHECK(ins.inputs[0].layout == "NHWC");
  CHECK(ins.outputs[0].space == AddressSpace::Nram);
  CHECK(ins.outputs[0].shape == std::vector<std::uint64_t>{1, 4, 4, 8});
  CHECK(ins.outputs[0].dtype == DType::Int8);
  CHECK(ins.deps.empty());
  CHECK(ins.params.is_object());

  REQUIRE(reader.next(ins));
  CHECK(ins.id == 1);
  CHECK(ins.line == 5);  // blank lines count
  CHECK(ins.core == 1);
  CHECK(ins.inputs[0].layout == "NCHW");
  CHECK(ins.inputs[0].tags == std::vector<std::string>{"ifmap"});
  CHECK(ins.outputs[0].offset == 128);
  REQUIRE(ins.deps.size() == 1);
  CHECK(ins.deps[0].producer == 0);
  CHECK(ins.deps[0].mode == DependencyMode::Full);

  REQUIRE(reader.next(ins));
  CHECK(ins.id == 5);
  REQUIRE(ins.deps.size() == 2);
  CHECK(ins.deps[0].producer == 1);
  CHECK(ins.deps[0].mode == DependencyMode::Staged);
  CHECK(ins.deps[0].granularity == "rows");
  CHECK(ins.deps[1].mode == DependencyMode::TwoPhase);
  CHECK(ins.deps[1].granularity.empty());
  CHECK(ins.outputs[0].space == AddressSpace::Dram);

  CHECK_FALSE(reader.next(ins));
  CHECK(reader.instructions_read() == 3);
}

TEST_CASE("add and conv parse with their params", "[trace]") {
  ScratchDir dir;
  auto conv = conv_line(2);
  conv["params"] = {{"stride", {2, 2}}, {"padding", {1, 1, 1, 1}}};
  conv["outputs"][0]["shape"] = {1, 3, 3, 4};  // (6+2-3)/2+1 = 3
  auto path = dir.write_lines("t.jsonl", {kHeaderLine, add_line(1).dump(), conv.dump()});
  TraceReader reader(path, small_config());
  Instruction ins;
  REQUIRE(reader.next(ins));
  CHECK(ins.op == "add");
  CHECK(ins.inputs.size() == 2);
  REQUIRE(reader.next(ins));
  CHECK(ins.op == "conv");
  CHECK(ins.engine == "matrix");
  CHECK(ins.inputs[1].space == AddressSpace::Wram);
  CHECK(ins.outputs[0].dtype == DType::Int32);
  CHECK(ins.params["stride"] == nlohmann::json({2, 2}));
}

TEST_CASE("float32 conv produces float32 and the default stride and padding apply", "[trace]") {
  ScratchDir dir;
  auto conv = conv_line(0);
  conv["inputs"][0]["dtype"] = "float32";
  conv["inputs"][1]["dtype"] = "float32";
  conv["outputs"][0]["dtype"] = "float32";
  conv["outputs"][0]["offset"] = 8192;
  auto path = dir.write_lines("t.jsonl", {kHeaderLine, conv.dump()});
  CHECK(validate_trace(path, small_config()) == 1);
}

TEST_CASE("header bindings resolve .npy files and random data", "[trace]") {
  ScratchDir dir;
  write_npy(dir.file("x.npy"), NpyArray{DType::Int16, {2, 3}, std::vector<std::uint8_t>(12, 7)});
  nlohmann::json header = {
      {"format", "npusim-trace"},
      {"version", 1},
      {"inputs",
       {{{"name", "x"}, {"space", "dram"}, {"offset", 0}, {"file", "x.npy"}},
        {{"name", "w"}, {"space", "wram"}, {"core", 1}, {"offset", 64}, {"shape", {4, 3, 3, 8}},
         {"dtype", "int8"}, {"random_seed", 7}}}},
      {"outputs", {{{"name", "y"}, {"space", "dram"}, {"offset", 4096}, {"shape", {1, 4, 4, 8}}, {"dtype", "int8"}}}},
  };
  auto path = dir.write_lines("t.jsonl", {header.dump()});
  TraceReader reader(path, small_config());
  const auto& h = reader.header();
  REQUIRE(h.inputs.size() == 2);
  CHECK(h.inputs[0].name == "x");
  CHECK(h.inputs[0].file == "x.npy");
  CHECK(h.inputs[0].file_path == dir.file("x.npy"));
  CHECK(h.inputs[0].region.shape == std::vector<std::uint64_t>{2, 3});
  CHECK(h.inputs[0].region.dtype == DType::Int16);
  CHECK_FALSE(h.inputs[0].random_seed.has_value());
  CHECK(h.inputs[1].region.space == AddressSpace::Wram);
  CHECK(h.inputs[1].core == 1);
  CHECK(h.inputs[1].region.offset == 64);
  CHECK(h.inputs[1].random_seed == std::optional<std::uint64_t>(7));
  REQUIRE(h.outputs.size() == 1);
  CHECK(h.outputs[0].name == "y");
  CHECK(h.outputs[0].region.bytes() == 128);
  Instruction ins;
  CHECK_FALSE(reader.next(ins));
  CHECK(reader.instructions_read() == 0);
}

TEST_CASE("validate_trace counts instructions and looks_like_trace sniffs the header", "[trace]") {
  ScratchDir dir;
  auto trace = dir.write_lines("t.jsonl", {"", kHeaderLine, load_line(0).dump(), relu_line(1).dump()});
  CHECK(validate_trace(trace, small_config()) == 2);
  CHECK(looks_like_trace(trace));
  CHECK_FALSE(looks_like_trace(dir.write("config.json", "{\n  \"chip\": {\"clusters\": 1}\n}\n")));
  CHECK_FALSE(looks_like_trace(dir.write("one-line.json", R"({"chip":{"clusters":1}})")));
  // A .jsonl file, a wrong header or a missing one still go to the trace reader,
  // whose messages say what is wrong with a trace.
  CHECK(looks_like_trace(dir.write("other.json", R"({"format":"something-else","version":1})")));
  CHECK(looks_like_trace(dir.write("headerless.json", load_line(0).dump())));
  CHECK(looks_like_trace(dir.write("empty.jsonl", "")));
  CHECK(looks_like_trace(dir.file("missing.jsonl")));
  CHECK_FALSE(looks_like_trace(dir.write("empty.json", "")));
}

TEST_CASE("ops are registered by name and new ones need no reader change", "[trace]") {
  CHECK(find_op("relu")->engine == "vector");
  CHECK(find_op("conv")->inputs.size() == 2);
  CHECK(find_op("nosuchop") == nullptr);
  register_op({"negate", "vector", {{"source", {AddressSpace::Nram}}}, {{"result", {AddressSpace::Nram}}}, {},
               [](const Instruction&) { return std::optional<OpProblem>(); }});
  ScratchDir dir;
  auto line = relu_line(0);
  line["op"] = "negate";
  CHECK(validate_trace(dir.write_lines("t.jsonl", {kHeaderLine, line.dump()}), small_config()) == 1);
}

TEST_CASE("ids may skip numbers and dependencies still find earlier ids", "[trace]") {
  IdRuns seen;
  for (std::uint64_t id : {0, 1, 2, 5, 6, 9}) seen.add(id);
  CHECK(seen.runs() == 3);
  for (std::uint64_t id : {0, 1, 2, 5, 6, 9}) CHECK(seen.contains(id));
  for (std::uint64_t id : {3, 4, 7, 8, 10}) CHECK_FALSE(seen.contains(id));

  ScratchDir dir;
  auto store = store_line(9);
  store["deps"] = {0, 5};
  auto path = dir.write_lines("t.jsonl", {kHeaderLine, load_line(0).dump(), relu_line(5).dump(), store.dump()});
  CHECK(validate_trace(path, small_config()) == 3);
}
