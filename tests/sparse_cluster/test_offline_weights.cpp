// Weights compressed outside the accelerator (seed001 ¶203-205, issue 47): a binding
// stored compressed puts the flat format in DRAM before the run, the compiler emits no
// compress op for weights, and a binding that cannot be stored so is bad input.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>

#include "apps/compiler/TraceEmitter.h"
#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "sim/config/ConfigLoader.h"
#include "sim/tensor/Npy.h"

using Catch::Matchers::Contains;

namespace {

void save_int8(const std::string& path, std::vector<std::uint64_t> shape, std::vector<std::int8_t> values) {
  npusim::NpyArray a;
  a.dtype = npusim::DType::Int8;
  a.shape = std::move(shape);
  a.data.assign(values.begin(), values.end());
  npusim::write_npy(path, a);
}

// A trace whose only input is `binding` and whose outputs read DRAM [0, 8) as int8 and
// [64, 96) as int32: the values and indices of a compressed binding.
std::string dump_trace(const std::string& binding) {
  return R"({"format":"npusim-trace","version":1,"inputs":[)" + binding +
         R"(],"outputs":[{"name":"values","space":"dram","offset":0,"shape":[8],"dtype":"int8"},)"
         R"({"name":"indices","space":"dram","offset":64,"shape":[8],"dtype":"int32"}]})"
         "\n"
         R"({"id":0,"op":"relu","engine":"vector","inputs":[{"space":"nram","offset":0,"shape":[16],"dtype":"int8"}],)"
         R"("outputs":[{"space":"nram","offset":16,"shape":[16],"dtype":"int8"}]})"
         "\n";
}

std::vector<std::int32_t> int32s(const npusim::NpyArray& a) {
  std::vector<std::int32_t> v(a.data.size() / 4);
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

}  // namespace

TEST_CASE("offline weights: a binding stored compressed holds the flat format in DRAM (hand-computed)",
          "[sparse][offline_weights][e2e]") {
  const std::string dir = scratch_dir("offline-weights");
  // A [2, 1, 2, 2] kernel with three non-zeros at elements 1, 4 and 6.
  save_int8(dir + "/w.npy", {2, 1, 2, 2}, {0, 5, 0, 0, -7, 0, 2, 0});
  write_text(dir + "/t.jsonl",
             dump_trace(R"({"name":"w","space":"dram","offset":0,"file":"w.npy","compressed":{"indices":64}})"));
  const auto r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--config",
                             source_path("configs/sparse.json"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto values = npusim::read_npy(dir + "/run/tensors/values.npy");
  CHECK(std::vector<std::uint8_t>(values.data.begin(), values.data.end()) ==
        std::vector<std::uint8_t>{5, std::uint8_t(-7), 2, 0, 0, 0, 0, 0});
  CHECK(int32s(npusim::read_npy(dir + "/run/tensors/indices.npy")) == std::vector<std::int32_t>{1, 4, 6, -1, 0, 0, 0, 0});
}

TEST_CASE("offline weights: a binding that cannot be stored compressed exits 2 naming the field",
          "[sparse][offline_weights][e2e]") {
  const std::string dir = scratch_dir("offline-weights-bad");
  const std::map<std::string, std::string> cases = {
      {R"({"name":"w","space":"nram","offset":0,"shape":[8],"dtype":"int8","random_seed":1,"compressed":{"indices":64}})",
       "inputs[0].compressed"},
      {R"({"name":"w","space":"dram","offset":0,"shape":[2],"dtype":"int32","random_seed":1,"compressed":{"indices":64}})",
       "int8 only"},
      {R"({"name":"w","space":"dram","offset":0,"shape":[8],"dtype":"int8","random_seed":1,"compressed":{"at":64}})",
       "inputs[0].compressed"},
      {R"({"name":"w","space":"dram","offset":0,"shape":[8],"dtype":"int8","random_seed":1,"compressed":{"indices":-1}})",
       "inputs[0].compressed.indices"}};
  for (const auto& [binding, says] : cases) {
    INFO(binding);
    write_text(dir + "/t.jsonl", dump_trace(binding));
    const auto r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--config",
                               source_path("configs/sparse.json"), "--out", dir + "/run"});
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains(says));
  }
}

// Pruned ResNet-50 (issue 47, "must show"): no compress op reads a kernel; the compress
// ops left are the input bands of sparse layers whose producer stores its output dense
// (another engine, the network input, or a map with a reader off the cluster).
TEST_CASE("offline weights: pruned ResNet-50 on configs/sparse.json compresses no weights on the chip",
          "[sparse][offline_weights][compiler]") {
  const auto hw = npusim::load_hardware_config(source_path("configs/sparse.json"));
  npusim::TraceEmitter e(npusim::read_workload(source_path("traces/workloads/resnet50-pruned.json")), hw);
  std::map<std::string, const npusim::CompiledLayer*> by_name;
  std::map<std::string, std::set<std::string>> reader_engines;
  for (const auto& c : e.layers()) {
    by_name[c.layer.name] = &c;
    for (const auto& in : c.layer.inputs) reader_engines[in].insert(c.tiling.engine);
  }
  std::size_t fed_dense = 0;
  for (const auto& c : e.layers()) {
    if (c.tiling.engine != "sparse") continue;
    const auto producer = by_name.find(c.layer.inputs.at(0));
    const bool dense = producer == by_name.end() || producer->second->tiling.engine != "sparse" ||
                       reader_engines[c.layer.inputs.at(0)] != std::set<std::string>{"sparse"};
    fed_dense += dense;
  }
  std::size_t weight_compresses = 0, compresses = 0;
  npusim::Instruction inst;
  while (e.next(inst))
    if (inst.op == "compress") {
      ++compresses;
      weight_compresses += inst.inputs.at(0).shape.size() == 4;
    }
  CHECK(weight_compresses == 0);
  CHECK(compresses > 0);
  CHECK(compresses <= fed_dense);
  INFO("compress ops " << compresses << ", sparse layers fed by a dense producer " << fed_dense);
  CHECK(fed_dense < 53);
}
