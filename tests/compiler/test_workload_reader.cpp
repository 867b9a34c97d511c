#include <catch2/catch.hpp>
#include <filesystem>

#include "e2e/NpusimProcess.h"
#include "sim/common/InputError.h"
#include "apps/compiler/TraceEmitter.h"
#include "apps/frontend/WorkloadReader.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;

namespace {
std::string error_of(const std::string& json) {
  try {
    parse_workload_json(json, "w.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
const char* kHead = R"({"input":{"h":8,"w":8,"c":4},"layers":[)";
}  // namespace

TEST_CASE("compiler: workload JSON resolves shapes through named inputs", "[compiler]") {
  Workload w = parse_workload_json(std::string(kHead) + R"(
    {"name":"a","type":"conv","co":8,"k":3,"padding":1,"relu":true},
    {"name":"p","type":"pool","k":2,"stride":2},
    {"name":"b","type":"conv","co":8,"k":1,"stride":2,"input":"a"},
    {"name":"s","type":"add","inputs":["p","b"]},
    {"name":"d","type":"conv","co":8,"k":3,"padding":"same","groups":8},
    {"name":"f","type":"fc","n":3}]})", "w.json");
  REQUIRE(w.layers.size() == 6);
  CHECK(w.layers[0].out == MapShape{8, 8, 8});
  CHECK(w.layers[1].out == MapShape{4, 4, 8});
  CHECK(w.layers[2].out == MapShape{4, 4, 8});
  CHECK(w.layers[4].kind == LayerKind::Depthwise);
  CHECK(w.layers[4].out == MapShape{4, 4, 8});
  CHECK(w.layers[5].out == MapShape{4, 4, 3});
  CHECK(w.layers[5].macs() == 4 * 4 * 3 * 8);
}

TEST_CASE("compiler: bad workloads name the file, the layer and the reason", "[compiler]") {
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"c","type":"conv","co":8,"kk":3}]})"),
             Catch::Contains("w.json: layers[0] (c), field 'kk': unknown field"));
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"c","type":"conv","co":8,"k":3,"input":"nope"}]})"),
             Catch::Contains("'nope' is neither 'input' nor an earlier layer"));
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"c","type":"conv","co":8,"k":3,"groups":3}]})"),
             Catch::Contains("groups must divide ci (4) and co (8)"));
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"c","type":"conv","co":8,"k":9}]})"),
             Catch::Contains("kernel 9 is larger than the padded input 8"));
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"c","type":"conv","co":8,"k":3,"ci":5}]})"),
             Catch::Contains("field 'ci': is 5 but the layer's input tensor has 4"));
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"c","type":"lstm"}]})"), Catch::Contains("field 'type'"));
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"c","type":"conv","co":8,"k":2,"dilation":1100}]})"),
             Catch::Contains("field 'dilation': must be from 1 to 1024"));
  CHECK_THAT(error_of("{"), Catch::Contains("line 1, column 2: malformed JSON"));
}

TEST_CASE("compiler: SCALE-Sim tables skip blank rows and trailing columns", "[compiler]") {
  Workload w = parse_scale_sim_csv(
      "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n"
      "Conv1, 224, 224, 7, 7, 3, 64, 2,\n"
      "\n , , \n"
      "CB2a_1, 56, 56, 1, 1, 64, 64, 1, extra, 9\r\n",
      "t.csv");
  REQUIRE(w.layers.size() == 2);
  CHECK(w.independent_layers);
  CHECK(w.layers[0].out == MapShape{109, 109, 64});
  CHECK(w.layers[1].out == MapShape{56, 56, 64});
  CHECK_THROWS_WITH(parse_scale_sim_csv("a, 1, x, 1, 1, 1, 1, 1\n", "t.csv"),
                    Catch::Contains("t.csv: line 1, field 'IFMAP Width': must be a positive integer, got 'x'"));
}

TEST_CASE("compiler: a layer too wide for NRAM exits 2 naming the layer and the capacity", "[compiler][e2e]") {
  const std::string dir = scratch_dir("too-wide");
  write_text(dir + "/w.json",
             R"({"input":{"h":4,"w":4096,"c":512},"layers":[{"name":"wide","type":"conv","co":16,"k":3}]})");
  auto r = run_npusim({"compile", "--workload", dir + "/w.json", "-o", dir + "/t.jsonl"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("layer 'wide'") && Catch::Contains("NRAM holds 524288 bytes"));
}

TEST_CASE("compiler: a compiled SCALE-Sim table is a valid trace that runs on four cores", "[compiler][e2e]") {
  const std::string dir = scratch_dir("compile-csv");
  auto c = run_npusim({"compile", "--quiet", "--config", source_path("configs/smp-2x2.json"), "--workload",
                       source_path("traces/workloads/scale-sim-example.csv"), "-o", dir + "/t.jsonl"});
  INFO(c.output);
  REQUIRE(c.status == 0);
  auto r = run_npusim({"run", "--quiet", "--config", source_path("configs/smp-2x2.json"), "--trace", dir + "/t.jsonl",
                       "--out", dir + "/run"});
  INFO(r.output);
  CHECK(r.status == 0);
}

TEST_CASE("compiler: workload .npy data must exist and match the tensor", "[compiler][e2e]") {
  const std::string dir = scratch_dir("npy-data");
  write_text(dir + "/w.json", R"({"input":{"h":4,"w":4,"c":3,"file":"x.npy"},"layers":[{"name":"c","type":"conv","co":4,"k":1}]})");
  auto missing = run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--out", dir + "/run"});
  CHECK(missing.status == 2);
  CHECK_THAT(missing.output, Catch::Contains("x.npy"));
  write_text(dir + "/x.npy", "not a numpy file");
  CHECK(run_npusim({"run", "--quiet", "--workload", dir + "/w.json", "--out", dir + "/run"}).status == 2);
  CHECK_FALSE(std::filesystem::exists(dir + "/run"));
}

// A layer's own "split" forces its mode; --split overrides it; a bad value is one message.
TEST_CASE("compiler: a conv or fc layer's own split forces its mode, below --split", "[compiler][split]") {
  const HardwareConfig hw = load_hardware_config(source_path("configs/smp-2x2.json"));
  const std::string layers = R"({"input":{"h":16,"w":16,"c":64},"split":"data","layers":[
    {"name":"a","type":"conv","co":64,"k":3,"padding":1,"split":"model-co"},
    {"name":"b","type":"conv","co":64,"k":3,"padding":1},
    {"name":"f","type":"fc","n":32,"split":"model-ci"}]})";
  const Workload w = parse_workload_json(layers, "w.json");
  auto mode_of = [](const TraceEmitter& e, std::size_t i) { return e.layers().at(i).tiling.split; };
  const TraceEmitter own(w, hw);
  CHECK(mode_of(own, 0) == ParallelMode::ModelCo);
  CHECK(mode_of(own, 1) == ParallelMode::Data);  // the workload's "split"
  CHECK(mode_of(own, 2) == ParallelMode::ModelCi);
  CHECK_THAT(own.layers().at(0).split.reason, Catch::Contains("the layer's \"split\""));
  CHECK_THAT(own.layers().at(1).split.reason, Catch::Contains("the workload's \"split\""));
  SplitOptions forced;
  forced.choice = SplitChoice::Data;
  const TraceEmitter cli(w, hw, forced);
  for (std::size_t i = 0; i < 3; ++i) CHECK(mode_of(cli, i) == ParallelMode::Data);
  CHECK_THAT(cli.layers().at(0).split.reason, Catch::Contains("--split"));
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"c","type":"conv","co":8,"k":3,"split":"diagonal"}]})"),
             Catch::Contains("layers[0] (c), field 'split': 'diagonal' must be one of"));
  CHECK_THAT(error_of(std::string(kHead) + R"({"name":"p","type":"pool","k":2,"split":"data"}]})"),
             Catch::Contains("field 'split': unknown field"));
}

TEST_CASE("compiler: a JSON conv with groups dividing ci and co is a grouped conv", "[compiler][structure]") {
  Workload w = parse_workload_json(std::string(kHead) + R"(
    {"name":"g","type":"conv","co":6,"k":3,"padding":1,"groups":2}]})", "w.json");
  REQUIRE(w.layers.size() == 1);
  CHECK(w.layers[0].kind == LayerKind::Conv);
  CHECK(w.layers[0].groups == 2);
  CHECK(w.layers[0].weight_elements() == 6 * 3 * 3 * 2);  // each output reads its group's 2 inputs
  CHECK(w.layers[0].macs() == 8 * 8 * 6 * 3 * 3 * 2);
}
