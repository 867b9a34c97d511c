#include <catch2/catch.hpp>

#include "apps/frontend/WorkloadReader.h"
#include "sim/common/InputError.h"

using namespace npusim;

namespace {
std::string error_of(const std::string& layers) {
  try {
    parse_workload_json(R"({"input":{"h":16,"w":1,"c":32},"layers":[)" + layers + "]}", "t.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// One attention head group: q, k, v projections, QK^T, softmax, attention x V.
const char* kAttention = R"(
  {"name":"q","type":"fc","n":32,"input":"input"},
  {"name":"k","type":"fc","n":32,"input":"input"},
  {"name":"v","type":"fc","n":32,"input":"input"},
  {"name":"s","type":"matmul","inputs":["q","k"],"heads":4,"transpose_b":true},
  {"name":"p","type":"softmax","heads":4},
  {"name":"o","type":"matmul","inputs":["p","v"],"heads":4},
  {"name":"n","type":"layernorm"},
  {"name":"g","type":"gelu","frac_bits":3})";
}  // namespace

TEST_CASE("compiler: matmul heads cut the channels of both operands into segments", "[compiler][transformer]") {
  Workload w = parse_workload_json(std::string(R"({"input":{"h":16,"w":1,"c":32},"layers":[)") + kAttention + "]}",
                                   "t.json");
  const Layer& s = w.layers[3];
  REQUIRE(s.kind == LayerKind::Matmul);
  const MatmulShape qk = s.matmul();
  CHECK((qk.heads == 4 && qk.m == 16 && qk.k == 8 && qk.n == 16 && qk.cached_rows == 0));
  CHECK(s.out == MapShape{16, 1, 64});
  CHECK(s.macs() == 4u * 16 * 16 * 8);
  CHECK(s.shift == default_requant_shift(8));
  const Layer& o = w.layers[5];
  const MatmulShape av = o.matmul();
  CHECK((av.m == 16 && av.k == 16 && av.n == 8));
  CHECK(o.out == MapShape{16, 1, 32});
  CHECK(o.macs() == 4u * 16 * 8 * 16);
  CHECK(w.layers[4].kind == LayerKind::Softmax);
  CHECK(w.layers[4].heads == 4);
  CHECK(w.layers[6].kind == LayerKind::LayerNorm);
  CHECK(w.layers[7].frac_bits == 3);
  for (std::size_t i = 4; i < 8; i += 2) CHECK(w.layers[i].macs() == 0);
}

TEST_CASE("compiler: a decode matmul reads the whole KV cache", "[compiler][transformer]") {
  Workload w = parse_workload_json(R"({"input":{"h":1,"w":1,"c":32},"layers":[
    {"name":"q","type":"fc","n":32,"input":"input"},
    {"name":"k","type":"fc","n":32,"input":"input"},
    {"name":"v","type":"fc","n":32,"input":"input"},
    {"name":"s","type":"matmul","inputs":["q","k"],"heads":2,"transpose_b":true,"kv_cache_tokens":100},
    {"name":"o","type":"matmul","inputs":["s","v"],"heads":2,"kv_cache_tokens":100}]})",
                                   "t.json");
  const MatmulShape qk = w.layers[3].matmul();
  CHECK((qk.m == 1 && qk.k == 16 && qk.n == 100 && qk.b_rows == 1 && qk.cached_rows == 99));
  CHECK(w.layers[3].out == MapShape{1, 1, 200});
  CHECK(w.layers[3].b_elements() == 100u * 32);
  const MatmulShape av = w.layers[4].matmul();
  CHECK((av.k == 100 && av.n == 16 && av.cached_rows == 99));
  CHECK(w.layers[4].macs() == 2u * 1 * 16 * 100);
}

TEST_CASE("compiler: bad transformer layers name the layer and the reason", "[compiler][transformer]") {
  const std::string qkv = R"({"name":"q","type":"fc","n":32,"input":"input"},{"name":"k","type":"fc","n":24},)";
  CHECK_THAT(error_of(qkv + R"({"name":"s","type":"matmul","inputs":["q","k"],"heads":3})"),
             Catch::Contains("t.json: layers[2] (s), field 'heads': 3 divides inputs[0]'s 32 channels unevenly"));
  CHECK_THAT(error_of(qkv + R"({"name":"s","type":"matmul","inputs":["q","k"],"transpose_b":true})"),
             Catch::Contains("field 'inputs': the shared dimension differs: A gives k = 32"));
  CHECK_THAT(error_of(qkv + R"({"name":"s","type":"matmul","inputs":["q","k"],"transpose_b":true,"kv_cache_tokens":8,"heads":8})"),
             Catch::Contains("field 'kv_cache_tokens': 8 is fewer than the 16 rows"));
  CHECK_THAT(error_of(qkv + R"({"name":"s","type":"matmul","input":"q"})"),
             Catch::Contains("field 'inputs': matmul needs \"inputs\": [a, b]"));
  CHECK_THAT(error_of(R"({"name":"p","type":"softmax","heads":5})"), Catch::Contains("field 'heads': 5 divides"));
  CHECK_THAT(error_of(R"({"name":"p","type":"gelu","frac_bits":9})"),
             Catch::Contains("layers[0] (p), field 'frac_bits': must be an integer from 0 to 7"));
  CHECK_THAT(error_of(R"({"name":"p","type":"layernorm","relu":true})"), Catch::Contains("field 'relu': is not fused"));
  CHECK_THAT(error_of(R"({"name":"p","type":"layernorm","heads":2})"), Catch::Contains("field 'heads': unknown field"));
}
