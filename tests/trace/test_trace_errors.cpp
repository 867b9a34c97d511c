#include <catch2/catch.hpp>

#include "sim/common/InputError.h"
#include "sim/tensor/Npy.h"
#include "sim/trace/TraceReader.h"
#include "trace/TraceTestSupport.h"

using namespace npusim;
using namespace npusim::testing;
using Catch::Matchers::Contains;
using Json = nlohmann::json;

namespace {

struct TraceError {
  std::string file, location, reason;
};

// Streams the whole trace and returns the InputError it raised.
TraceError read_error(const std::vector<std::string>& lines, const HardwareConfig& cfg = small_config()) {
  ScratchDir dir;
  auto path = dir.write_lines("bad.jsonl", lines);
  try {
    validate_trace(path, cfg);
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    return {e.file(), e.location(), e.reason()};
  }
  FAIL("the trace was accepted");
  return {};
}

std::string changed(Json line, const std::string& pointer, Json value) {
  line[Json::json_pointer(pointer)] = std::move(value);
  return line.dump();
}

std::string without(Json line, const std::string& pointer) {
  Json::json_pointer p(pointer);
  line[p.parent_pointer()].erase(p.back());
  return line.dump();
}

void check_error(const TraceError& e, const std::string& location, const std::string& reason_part) {
  CHECK(e.location == location);
  CHECK_THAT(e.reason, Contains(reason_part));
}

// A trace of header, load 0, then `line` on line 3.
TraceError third_line_error(const std::string& line, const HardwareConfig& cfg = small_config()) {
  return read_error({kHeaderLine, load_line(0).dump(), line}, cfg);
}

}  // namespace

TEST_CASE("trace errors: malformed JSON and the header", "[trace]") {
  SECTION("malformed JSON") {
    check_error(read_error({kHeaderLine, R"({"id":0,"op":)"}), "line 2, column 14", "malformed JSON: syntax error");
  }
  SECTION("malformed header line") { check_error(read_error({"{format"}), "line 1, column 3", "malformed JSON"); }
  SECTION("empty file") { check_error(read_error({}), "line 1", "missing header"); }
  SECTION("first line is an instruction") {
    check_error(read_error({load_line(0).dump()}), "line 1", "missing header");
  }
  SECTION("wrong format") {
    check_error(read_error({R"({"format":"npusim-trac","version":1})"}), "line 1, field 'format'",
                "expected \"npusim-trace\"");
  }
  SECTION("wrong version") {
    check_error(read_error({R"({"format":"npusim-trace","version":2})"}), "line 1, field 'version'",
                "unsupported trace version 2");
  }
  SECTION("missing version") {
    check_error(read_error({R"({"format":"npusim-trace"})"}), "line 1, field 'version'", "missing required field");
  }
  SECTION("unknown header key") {
    check_error(read_error({R"({"format":"npusim-trace","version":1,"input":[]})"}), "line 1, field 'input'",
                "did you mean 'inputs'?");
  }
  SECTION("line numbers count blank lines") {
    check_error(read_error({"", kHeaderLine, "", "[1,2]"}), "line 4", "must be a JSON object");
  }
}

TEST_CASE("trace errors: missing fields and wrong types", "[trace]") {
  SECTION("missing op") { check_error(third_line_error(without(relu_line(1), "/op")), "line 3, field 'op'", "missing required field"); }
  SECTION("missing id") { check_error(third_line_error(without(relu_line(1), "/id")), "line 3, field 'id'", "missing required field"); }
  SECTION("missing tensor dtype") {
    check_error(third_line_error(without(relu_line(1), "/inputs/0/dtype")), "line 3, field 'inputs[0].dtype'",
                "missing required field");
  }
  SECTION("string id") {
    check_error(third_line_error(changed(relu_line(1), "/id", "1")), "line 3, field 'id'",
                "must be a non-negative integer, got string");
  }
  SECTION("negative offset") {
    check_error(third_line_error(changed(relu_line(1), "/outputs/0/offset", -4)), "line 3, field 'outputs[0].offset'",
                "must be a non-negative integer");
  }
  SECTION("id too large") {
    check_error(third_line_error(changed(relu_line(1), "/id", 1ull << 31)), "line 3, field 'id'", "too large");
  }
  SECTION("inputs not a list") {
    check_error(third_line_error(changed(relu_line(1), "/inputs", 3)), "line 3, field 'inputs'", "must be a list");
  }
  SECTION("params not an object") {
    check_error(third_line_error(changed(relu_line(1), "/params", Json::array())), "line 3, field 'params'",
                "must be an object");
  }
  SECTION("unknown instruction field") {
    check_error(third_line_error(changed(relu_line(1), "/dep", Json::array())), "line 3, field 'dep'",
                "did you mean 'deps'?");
  }
}

TEST_CASE("trace errors: op, engine and core", "[trace]") {
  SECTION("unknown op") {
    check_error(third_line_error(changed(relu_line(1), "/op", "rleu")), "line 3, field 'op'",
                "unknown op 'rleu' (did you mean 'relu'?)");
  }
  SECTION("unknown engine") {
    check_error(third_line_error(changed(relu_line(1), "/engine", "vectr")), "line 3, field 'engine'",
                "unknown engine 'vectr' (did you mean 'vector'?)");
  }
  SECTION("engine does not match the op") {
    check_error(third_line_error(changed(relu_line(1), "/engine", "matrix")), "line 3, field 'engine'",
                "op 'relu' runs on engine 'vector', not 'matrix'");
  }
  SECTION("engine not present in the config") {
    auto cfg = small_config();
    cfg.core.engines = {"load", "store", "vector"};
    check_error(third_line_error(conv_line(1).dump(), cfg), "line 3, field 'op'",
                "needs engine 'matrix', which this config's cores do not have");
  }
  SECTION("core beyond the chip") {
    check_error(third_line_error(changed(relu_line(1), "/core", 2)), "line 3, field 'core'",
                "core 2 does not exist; this config has 2 core(s)");
  }
}

TEST_CASE("trace errors: tensors", "[trace]") {
  SECTION("unknown dtype") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/0/dtype", "int9")), "line 3, field 'inputs[0].dtype'",
                "unknown dtype 'int9'");
  }
  SECTION("unknown space") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/0/space", "sram")), "line 3, field 'inputs[0].space'",
                "unknown address space 'sram'");
  }
  SECTION("zero dimension") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/0/shape", {1, 0, 4, 8})),
                "line 3, field 'inputs[0].shape'", "dimension 1 is 0");
  }
  SECTION("negative dimension") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/0/shape", {1, -4, 4, 8})),
                "line 3, field 'inputs[0].shape'", "positive integer");
  }
  SECTION("empty shape") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/0/shape", Json::array())),
                "line 3, field 'inputs[0].shape'", "non-empty list");
  }
  SECTION("beyond NRAM") {
    check_error(third_line_error(changed(relu_line(1), "/outputs/0/offset", 65536 - 100)), "line 3, field 'outputs[0]'",
                "tensor occupies bytes [65436, 65564) of nram, beyond its capacity of 65536 bytes");
  }
  SECTION("beyond WRAM") {
    check_error(third_line_error(changed(conv_line(1), "/inputs/1/offset", 32 * 1024)), "line 3, field 'inputs[1]'",
                "bytes [32768, 33056) of wram, beyond its capacity of 32768 bytes");
  }
  SECTION("beyond DRAM") {
    check_error(third_line_error(changed(store_line(1), "/outputs/0/offset", 1 << 20)), "line 3, field 'outputs[0]'",
                "of dram, beyond its capacity of 1048576 bytes");
  }
  SECTION("shape too large to address") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/0/shape", {1ull << 40, 1ull << 40})),
                "line 3, field 'inputs[0].shape'", "too large to address");
  }
  SECTION("pitch shorter than a row") {
    check_error(third_line_error(changed(store_line(1), "/outputs/0/pitch", 7)), "line 3, field 'outputs[0].pitch'",
                "pitch 7 is shorter than one innermost row (8 bytes)");
  }
  SECTION("pitched span beyond DRAM") {
    // 16 rows of 8 bytes, 70000 apart: the last row ends at 4096 + 15 * 70000 + 8.
    check_error(third_line_error(changed(store_line(1), "/outputs/0/pitch", 70000)), "line 3, field 'outputs[0]'",
                "tensor occupies bytes [4096, 1054104) of dram, beyond its capacity of 1048576 bytes");
  }
  SECTION("pitch too large to address") {
    check_error(third_line_error(changed(store_line(1), "/outputs/0/pitch", 1ull << 62)),
                "line 3, field 'outputs[0].pitch'", "too large to address");
  }
  SECTION("pitch on a compute operand") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/0/pitch", 16)), "line 3, field 'inputs[0].pitch'",
                "only the memory side (dram or cluster) of load and store may have a pitch");
  }
  SECTION("pitch on the scratchpad side of a store") {
    check_error(third_line_error(changed(store_line(1), "/inputs/0/pitch", 16)), "line 3, field 'inputs[0].pitch'",
                "must be dense");
  }
}

TEST_CASE("trace errors: ids and dependencies", "[trace]") {
  SECTION("repeated id") {
    check_error(third_line_error(relu_line(0).dump()), "line 3, field 'id'",
                "id 0 is not greater than the previous id 0");
  }
  SECTION("decreasing id") {
    check_error(read_error({kHeaderLine, load_line(5).dump(), relu_line(3).dump()}), "line 3, field 'id'",
                "ids must increase strictly");
  }
  SECTION("dependency on an id that never appeared") {
    check_error(third_line_error(changed(relu_line(4), "/deps", {0, 2})), "line 3, field 'deps[1]'",
                "dependency on id 2, which does not exist");
  }
  SECTION("dependency on itself") {
    check_error(third_line_error(changed(relu_line(4), "/deps", {4})), "line 3, field 'deps[0]'",
                "forward dependency: would form a cycle; dependencies must point to earlier instructions");
  }
  SECTION("dependency on a later id") {
    check_error(third_line_error(changed(relu_line(4), "/deps", {{{"id", 9}}})), "line 3, field 'deps[0]'",
                "forward dependency");
  }
  SECTION("unknown mode") {
    check_error(third_line_error(changed(relu_line(1), "/deps", {{{"id", 0}, {"mode", "stagd"}}})),
                "line 3, field 'deps[0].mode'", "unknown dependency mode 'stagd' (did you mean 'staged'?)");
  }
  SECTION("staged without granularity") {
    check_error(third_line_error(changed(relu_line(1), "/deps", {{{"id", 0}, {"mode", "staged"}}})),
                "line 3, field 'deps[0].granularity'", "needs a granularity");
  }
  SECTION("unknown granularity") {
    check_error(third_line_error(
                    changed(relu_line(1), "/deps", {{{"id", 0}, {"mode", "staged"}, {"granularity", "cols"}}})),
                "line 3, field 'deps[0].granularity'", "unknown granularity 'cols'");
  }
  SECTION("granularity on a full dependency") {
    check_error(third_line_error(changed(relu_line(1), "/deps", {{{"id", 0}, {"granularity", "rows"}}})),
                "line 3, field 'deps[0].granularity'", "applies only to \"staged\"");
  }
  SECTION("dependency of the wrong type") {
    check_error(third_line_error(changed(relu_line(1), "/deps", {"0"})), "line 3, field 'deps[0]'",
                "a dependency is an id");
  }
}

TEST_CASE("trace errors: operands against the op catalog", "[trace]") {
  SECTION("operands partly overlap") {
    // relu reads [0, 128) and writes [64, 192) of NRAM.
    check_error(third_line_error(changed(relu_line(1), "/outputs/0/offset", 64)), "line 3, field 'outputs[0]'",
                "nram bytes [64, 192) partly overlap inputs[0] bytes [0, 128) of relu");
  }
  SECTION("an in-place op is not an overlap") {
    auto in_place = changed(relu_line(1), "/outputs/0/offset", 0);
    ScratchDir dir;
    CHECK(validate_trace(dir.write_lines("ok.jsonl", {kHeaderLine, load_line(0).dump(), in_place}), small_config()) == 2);
  }
  SECTION("arity") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/1", tensor("nram", 0, {1, 4, 4, 8}))),
                "line 3, field 'inputs'", "op 'relu' takes 1 inputs, got 2");
  }
  SECTION("space") {
    check_error(third_line_error(changed(relu_line(1), "/inputs/0/space", "dram")), "line 3, field 'inputs[0].space'",
                "must be in nram, not dram");
  }
  SECTION("load into dram") {
    check_error(third_line_error(changed(load_line(1), "/outputs/0/space", "dram")),
                "line 3, field 'outputs[0].space'", "must be in nram or wram");
  }
  SECTION("load changes the byte size") {
    check_error(third_line_error(changed(load_line(1), "/outputs/0/dtype", "int16")), "line 3, field 'outputs[0]'",
                "moves 128 bytes from inputs[0] but outputs[0] holds 256 bytes");
  }
  SECTION("add shapes differ") {
    check_error(third_line_error(changed(add_line(1), "/inputs/1/shape", {1, 4, 4, 4})),
                "line 3, field 'inputs[1].shape'", "shape [1, 4, 4, 4] differs from inputs[0].shape [1, 4, 4, 8]");
  }
  SECTION("relu changes dtype") {
    check_error(third_line_error(changed(relu_line(1), "/outputs/0/dtype", "uint8")), "line 3, field 'outputs[0].dtype'",
                "dtype uint8 differs from inputs[0].dtype int8");
  }
  SECTION("conv output shape") {
    check_error(third_line_error(changed(conv_line(1), "/outputs/0/shape", {1, 5, 4, 4})),
                "line 3, field 'outputs[0].shape'", "must be [n, ho, wo, co] = [1, 4, 4, 4], got [1, 5, 4, 4]");
  }
  SECTION("conv output dtype") {
    check_error(third_line_error(changed(conv_line(1), "/outputs/0/dtype", "int8")), "line 3, field 'outputs[0].dtype'",
                "conv of int8 produces int32");
  }
  SECTION("conv relu without a shift") {
    check_error(third_line_error(changed(conv_line(1), "/params/relu", true)), "line 3, field 'params.relu'",
                "give a shift too");
  }
  SECTION("conv shift with an int32 output") {
    check_error(third_line_error(changed(conv_line(1), "/params/shift", 7)), "line 3, field 'outputs[0].dtype'",
                "conv of int8 with a shift produces int8");
  }
  SECTION("conv shift out of range") {
    Json line = conv_line(1);
    line["outputs"][0]["dtype"] = "int8";
    check_error(third_line_error(changed(line, "/params/shift", 32)), "line 3, field 'params.shift'", "from 0 to 31");
  }
  SECTION("conv shift on float32") {
    Json line = conv_line(1);
    line["inputs"][0]["dtype"] = line["inputs"][1]["dtype"] = line["outputs"][0]["dtype"] = "float32";
    line["outputs"][0]["offset"] = 8192;  // 4-byte elements: keep clear of the ifmap
    check_error(third_line_error(changed(line, "/params/shift", 7)), "line 3, field 'params.shift'",
                "only int8 convs requantize");
  }
  SECTION("conv input dtype") {
    check_error(third_line_error(changed(conv_line(1), "/inputs/0/dtype", "int16")), "line 3, field 'inputs[0].dtype'",
                "int8 or float32");
  }
  SECTION("conv weights dtype") {
    check_error(third_line_error(changed(conv_line(1), "/inputs/1/dtype", "float32")),
                "line 3, field 'inputs[1].dtype'", "differs from ifmap dtype int8");
  }
  SECTION("conv channel mismatch") {
    check_error(third_line_error(changed(conv_line(1), "/inputs/1/shape", {4, 3, 3, 6})),
                "line 3, field 'inputs[1].shape'", "weights have ci=6 but the ifmap has ci=8");
  }
  SECTION("conv kernel larger than the padded ifmap") {
    check_error(third_line_error(changed(conv_line(1), "/inputs/1/shape", {4, 7, 3, 8})),
                "line 3, field 'inputs[1].shape'", "kernel 7x3 does not fit the padded ifmap 6x6");
  }
  SECTION("conv rank") {
    check_error(third_line_error(changed(conv_line(1), "/inputs/0/shape", {6, 6, 8})), "line 3, field 'inputs[0].shape'",
                "4-D shape");
  }
  SECTION("conv zero stride") {
    check_error(third_line_error(changed(conv_line(1), "/params", {{"stride", {0, 1}}})),
                "line 3, field 'params.stride'", "list of 2 integers, each at least 1");
  }
  SECTION("conv short padding") {
    check_error(third_line_error(changed(conv_line(1), "/params", {{"padding", {1, 1}}})),
                "line 3, field 'params.padding'", "list of 4 integers");
  }
  SECTION("unknown param") {
    check_error(third_line_error(changed(conv_line(1), "/params", {{"strides", {1, 1}}})),
                "line 3, field 'params.strides'", "did you mean 'stride'?");
  }
  SECTION("params on an op that takes none") {
    check_error(third_line_error(changed(relu_line(1), "/params", {{"alpha", 1}})), "line 3, field 'params.alpha'",
                "unknown field");
  }
}

TEST_CASE("trace errors: header bindings", "[trace]") {
  Json x_input = {{"name", "x"}, {"space", "dram"}, {"offset", 0}, {"file", "x.npy"}};
  Json random_input = {{"name", "r"}, {"space", "nram"}, {"offset", 0}, {"shape", {4, 4}}, {"dtype", "int8"},
                       {"random_seed", 1}};
  auto header_with = [](const char* key, Json binding) {
    return Json{{"format", "npusim-trace"}, {"version", 1}, {key, {binding}}}.dump();
  };
  SECTION("missing .npy file") {
    check_error(read_error({header_with("inputs", x_input)}), "line 1, field 'inputs[0].file'",
                "cannot use 'x.npy': file does not exist");
  }
  SECTION("broken .npy file") {
    ScratchDir dir;
    dir.write("x.npy", "not numpy");
    auto path = dir.write_lines("t.jsonl", {header_with("inputs", x_input)});
    try {
      validate_trace(path, small_config());
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(e.location() == "line 1, field 'inputs[0].file'");
      CHECK_THAT(e.reason(), Contains("cannot use 'x.npy': not a .npy file: bad magic"));
    }
  }
  SECTION("file together with shape") {
    x_input["shape"] = {1};
    check_error(read_error({header_with("inputs", x_input)}), "line 1, field 'inputs[0].shape'",
                "not allowed with 'file'");
  }
  SECTION("neither file nor random data") {
    random_input.erase("random_seed");
    check_error(read_error({header_with("inputs", random_input)}), "line 1, field 'inputs[0]'",
                "either 'file' (a .npy) or 'shape', 'dtype' and 'random_seed'");
  }
  SECTION("dilation on a tensor that is not a kernel") {
    random_input["dilation"] = {2, 2};
    check_error(read_error({header_with("inputs", random_input)}), "line 1, field 'inputs[0].dilation'",
                "applies to kernels of shape [..., kh, kw, c]; this binding has shape [4, 4]");
  }
  SECTION("dilated dimension wraps around") {
    random_input["shape"] = {18014398509481985ull, 1, 1};
    random_input["dilation"] = {1024, 1};
    check_error(read_error({header_with("inputs", random_input)}), "line 1, field 'inputs[0].dilation'",
                "dilating kernel dimension 18014398509481985 by 1024 is too large to address");
  }
  SECTION("dilation of zero") {
    random_input["shape"] = {2, 3, 3, 4};
    random_input["dilation"] = {0, 2};
    check_error(read_error({header_with("inputs", random_input)}), "line 1, field 'inputs[0].dilation'",
                "two integers [dh, dw], each from 1 to 1024");
  }
  SECTION("dilated kernel beyond its space") {
    // Dense 1x3x3x1024 fits NRAM's 64 KiB; dilated by 4 it is 9x9x1024 = 82944 bytes.
    random_input["shape"] = {1, 3, 3, 1024};
    random_input["dilation"] = {4, 4};
    check_error(read_error({header_with("inputs", random_input)}), "line 1, field 'inputs[0]'",
                "bytes [0, 82944) of nram");
  }
  SECTION("binding beyond its space") {
    random_input["offset"] = 64 * 1024 - 8;
    check_error(read_error({header_with("inputs", random_input)}), "line 1, field 'inputs[0]'",
                "bytes [65528, 65544) of nram");
  }
  SECTION("output without dtype") {
    Json output = {{"name", "y"}, {"space", "dram"}, {"offset", 0}, {"shape", {4}}};
    check_error(read_error({header_with("outputs", output)}), "line 1, field 'outputs[0].dtype'",
                "missing required field");
  }
  SECTION("output name that is not a file stem") {
    Json output = {{"name", "../y"}, {"space", "dram"}, {"offset", 0}, {"shape", {4}}, {"dtype", "int8"}};
    check_error(read_error({header_with("outputs", output)}), "line 1, field 'outputs[0].name'", "not a valid name");
  }
  SECTION("binding core beyond the chip") {
    random_input["core"] = 9;
    check_error(read_error({header_with("inputs", random_input)}), "line 1, field 'inputs[0].core'",
                "core 9 does not exist");
  }
}

TEST_CASE("trace errors: a requantization bias must be one int32 per output channel, with a shift", "[trace][bias]") {
  Json line = conv_line(1);  // output [1, 4, 4, 4]: 4 channels
  line["outputs"][0]["dtype"] = "int8";
  line["params"]["shift"] = 7;
  SECTION("wrong length") {
    check_error(third_line_error(changed(line, "/params/bias", {1, 2, 3})), "line 3, field 'params.bias'",
                "must be a list of 4 integers, one per output channel");
  }
  SECTION("not an int32") {
    check_error(third_line_error(changed(line, "/params/bias", {1, 2, 3, 2147483648LL})), "line 3, field 'params.bias'",
                "2147483648 is not an int32");
    check_error(third_line_error(changed(line, "/params/bias", {1, 2, 3.5, 4})), "line 3, field 'params.bias'",
                "3.5 is not an int32");
  }
  SECTION("without a shift") {
    Json plain = conv_line(1);
    check_error(third_line_error(changed(plain, "/params/bias", {1, 2, 3, 4})), "line 3, field 'params.bias'",
                "give a shift too");
  }
}
