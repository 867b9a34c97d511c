// Pooling in the sparse compute units' back end (seed001 1370/1470/1590, ¶137-138, ¶168;
// issue 47): a hand-computed 4x4 map pooled 2x2 across the borders of sixteen units' tiny
// rectangles, and a compiled chain conv -> pool -> conv whose pool runs in the first conv's
// back end, equal to the plain reference with no vector pool op in the trace.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/FunctionalRun.h"
#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"
#include "sim/tensor/Npy.h"

namespace {

void save(const std::string& path, npusim::DType type, const void* data, std::uint64_t n, std::uint64_t bytes) {
  npusim::NpyArray a;
  a.dtype = type;
  a.shape = {n};
  a.data.resize(bytes);
  std::memcpy(a.data.data(), data, bytes);
  npusim::write_npy(path, a);
}

// The 4x4x1 map
//    1 0 5  2
//    0 7 3  0
//    8 0 0  6
//    2 4 0 -3
// through a 1x1 conv of weight 4 and shift 2 (the identity), then a 2x2 stride-2 pool.
std::vector<std::int8_t> pooled(const std::string& dir, bool max) {
  const std::vector<std::int8_t> values = {1, 5, 2, 7, 3, 8, 6, 2, 4, -3};
  const std::vector<std::int32_t> indices = {0, 2, 3, 5, 6, 8, 11, 12, 13, 15};
  const std::int8_t weight = 4;
  const std::int32_t weight_index = 0;
  save(dir + "/v.npy", npusim::DType::Int8, values.data(), 10, 10);
  save(dir + "/i.npy", npusim::DType::Int32, indices.data(), 10, 40);
  save(dir + "/wv.npy", npusim::DType::Int8, &weight, 1, 1);
  save(dir + "/wi.npy", npusim::DType::Int32, &weight_index, 1, 4);
  write_text(dir + "/t.jsonl",
             fmt::format(R"({{"format":"npusim-trace","version":1,"inputs":[)"
                         R"({{"name":"v","space":"dram","offset":0,"file":"v.npy"}},{{"name":"i","space":"dram","offset":64,"file":"i.npy"}},)"
                         R"({{"name":"wv","space":"dram","offset":256,"file":"wv.npy"}},{{"name":"wi","space":"dram","offset":320,"file":"wi.npy"}}],)"
                         R"("outputs":[{{"name":"y","space":"dram","offset":512,"shape":[2,2,1],"dtype":"int8"}}]}})"
                         "\n"
                         R"({{"id":0,"op":"sparse_conv","inputs":[{{"space":"dram","offset":0,"shape":[10],"dtype":"int8"}},)"
                         R"({{"space":"dram","offset":64,"shape":[10],"dtype":"int32"}},{{"space":"dram","offset":256,"shape":[1],"dtype":"int8"}},)"
                         R"({{"space":"dram","offset":320,"shape":[1],"dtype":"int32"}}],)"
                         R"("outputs":[{{"space":"dram","offset":512,"shape":[2,2,1],"dtype":"int8"}}],)"
                         R"("params":{{"ifm_shape":[4,4,1],"kernel":[1,1],"shift":2,)"
                         R"("pool":{{"max":{},"kernel":[2,2],"stride":[2,2]}}}}}})"
                         "\n",
                         max));
  const auto r = run_npusim({"run", "--quiet", "--functional", "--trace", dir + "/t.jsonl", "--config",
                             source_path("configs/sparse.json"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto y = npusim::read_npy(dir + "/run/tensors/y.npy");
  return std::vector<std::int8_t>(y.data.begin(), y.data.end());
}

}  // namespace

TEST_CASE("back-end pooling: a 2x2 max and avg pool of a hand-computed 4x4 map, across sixteen units' borders",
          "[sparse][back_end_pool][e2e]") {
  const std::string dir = scratch_dir("back-end-pool");
  CHECK(pooled(dir, true) == std::vector<std::int8_t>{7, 5, 8, 6});
  // avg rounds half up: 8/4 = 2, 10/4 -> 3, 14/4 -> 4, 3/4 -> 1.
  CHECK(pooled(dir, false) == std::vector<std::int8_t>{2, 3, 4, 1});
}

TEST_CASE("back-end pooling: conv -> 3x3 stride-2 max pool -> conv, the pool in the first conv's back end",
          "[sparse][back_end_pool][compiler][e2e]") {
  using namespace npusim::layer_reference;
  const std::string dir = scratch_dir("back-end-pool-chain");
  write_text(dir + "/w.json",
             R"({"seed":53,"input":{"h":19,"w":14,"c":6},"layers":[)"
             R"({"name":"a","type":"conv","co":8,"k":3,"padding":1,"relu":true,"engine":"sparse","activation_sparsity":0.5,"weight_sparsity":0.6},)"
             R"({"name":"p","type":"pool","mode":"max","k":3,"stride":2,"padding":1},)"
             R"({"name":"b","type":"conv","co":5,"k":1,"relu":true,"engine":"sparse","activation_sparsity":0.5,"weight_sparsity":0.6}]})");
  const std::string t = run_functional(dir + "/w.json", source_path("configs/sparse.json"), dir + "/run");
  const auto a = conv(load(t + "input.npy"), load(t + "a.weights.npy"), 8, 3, 3, 1, 1, {1, 1, 1, 1}, true);
  Tensor p{a.n, (a.h + 2 - 3) / 2 + 1, (a.w + 2 - 3) / 2 + 1, a.c, {}};
  for (std::uint32_t n = 0; n < p.n; ++n)
    for (std::uint32_t y = 0; y < p.h; ++y)
      for (std::uint32_t x = 0; x < p.w; ++x)
        for (std::uint32_t c = 0; c < p.c; ++c) {
          int best = -128;
          for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx) {
              const int iy = int(2 * y) + dy - 1, ix = int(2 * x) + dx - 1;
              if (iy >= 0 && ix >= 0 && iy < int(a.h) && ix < int(a.w))
                best = std::max<int>(best, a.v[((std::size_t(n) * a.h + iy) * a.w + ix) * a.c + c]);
            }
          p.v.push_back(std::int8_t(best));
        }
  const auto b = conv(p, load(t + "b.weights.npy"), 5, 1, 1, 1, 1, {0, 0, 0, 0}, true);
  CHECK(load(t + "b.npy").v == b.v);
  const auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
  const auto& pool_row = report.at("workload").at("rows").at(1);
  CHECK(pool_row.at("engine") == "sparse");
  CHECK(pool_row.at("instructions") == 0);
  CHECK(read_text(dir + "/run/instructions.csv").find(",pool,") == std::string::npos);
}
