// Transformer layers in functional mode over randomized shapes, each layer checked
// against a plain reference computed from the tensors the run dumps.
#include <catch2/catch.hpp>

#include <random>

#include <fmt/format.h>

#include "compiler/TransformerReference.h"
#include "e2e/NpusimProcess.h"

using namespace npusim::layer_reference;

namespace {

Tensor run_and_load(const std::string& workload, const std::string& config, const std::string& out) {
  auto r = run_npusim({"run", "--quiet", "--functional", "--workload", workload, "--config", config, "--out", out});
  INFO(r.output);
  REQUIRE(r.status == 0);
  return {};
}

// Exact for integer layers; the float layers may differ by one step where a value
// lands within rounding error of a half.
void check_close(const Tensor& got, const Tensor& want, bool exact) {
  REQUIRE(got.v.size() == want.v.size());
  std::size_t off = 0, far = 0;
  for (std::size_t i = 0; i < got.v.size(); ++i) {
    off += got.v[i] != want.v[i];
    far += std::abs(got.v[i] - want.v[i]) > 1;
  }
  CHECK(far == 0);
  CHECK(off <= (exact ? 0 : got.v.size() / 1000));
  // Not a degenerate tensor: the check could not pass on all zeros or all saturated.
  CHECK(std::count(got.v.begin(), got.v.end(), got.v.front()) < std::ptrdiff_t(got.v.size()));
}

}  // namespace

TEST_CASE("compiler: softmax, layernorm and gelu equal a plain reference", "[compiler][transformer][e2e]") {
  std::mt19937 rng(17);
  const std::string dir = scratch_dir("transformer-rowops");
  for (int trial = 0; trial < 3; ++trial) {
    const std::uint32_t heads = 1 + rng() % 4, seq = 3 + rng() % 40, c = heads * (4 + rng() % 30);
    const std::uint32_t frac = rng() % 6, batch = 1 + rng() % 2;
    INFO(fmt::format("trial {}: seq {} c {} heads {} frac_bits {} batch {}", trial, seq, c, heads, frac, batch));
    const std::string w = dir + fmt::format("/rows{}.json", trial);
    write_text(w, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": 1, "c": {}}}, "layers": [
      {{"name": "p", "type": "softmax", "heads": {}, "frac_bits": {}}},
      {{"name": "n", "type": "layernorm", "input": "input"}},
      {{"name": "g", "type": "gelu", "frac_bits": {}, "input": "input"}}]}})",
                              batch, trial + 5, seq, c, heads, frac, frac));
    const std::string out = dir + fmt::format("/out{}", trial);
    run_and_load(w, source_path("configs/smp-2x2.json"), out);
    auto t = [&](const std::string& name) { return load(out + "/tensors/" + name + ".npy"); };
    const Tensor x = t("input");
    check_close(t("p"), softmax(x, heads, frac), false);
    check_close(t("n"), layernorm(x), false);
    check_close(t("g"), gelu(x, frac), false);
  }
}

TEST_CASE("compiler: attention matmuls (with and without a KV cache) equal a plain reference",
          "[compiler][transformer][e2e]") {
  std::mt19937 rng(23);
  const std::string dir = scratch_dir("transformer-attention");
  // Default chip; four cores with a 1 KiB WRAM, so B comes in several column blocks.
  const std::string small = dir + "/small-wram.json";
  write_text(small, "{\"extends\": \"" + source_path("configs/smp-2x2.json") +
                        "\", \"core\": {\"wram\": {\"capacity_bytes\": 1024}}}");
  for (int trial = 0; trial < 4; ++trial) {
    const std::uint32_t heads = 1 + rng() % 4, dh = 4 + rng() % 20, seq = 2 + rng() % 30, batch = 1 + rng() % 2;
    const std::uint32_t cache = trial % 2 ? seq + 1 + rng() % 40 : 0;
    const std::string config = trial < 2 ? source_path("configs/default.json") : small;
    INFO(fmt::format("trial {}: heads {} dh {} seq {} cache {} batch {} config {}", trial, heads, dh, seq, cache, batch,
                     config));
    const std::string kv = cache ? fmt::format(", \"kv_cache_tokens\": {}", cache) : "";
    const std::string w = dir + fmt::format("/attn{}.json", trial);
    write_text(w, fmt::format(R"({{"batch": {}, "seed": {}, "input": {{"h": {}, "w": 1, "c": {}}}, "layers": [
      {{"name": "q", "type": "fc", "n": {}}},
      {{"name": "k", "type": "fc", "n": {}, "input": "input"}},
      {{"name": "v", "type": "fc", "n": {}, "input": "input"}},
      {{"name": "s", "type": "matmul", "inputs": ["q", "k"], "heads": {}, "transpose_b": true{}}},
      {{"name": "p", "type": "softmax", "heads": {}}},
      {{"name": "o", "type": "matmul", "inputs": ["p", "v"], "heads": {}{}}}]}})",
                              batch, 40 + trial, seq, 3 * dh, heads * dh, heads * dh, heads * dh, heads, kv, heads,
                              heads, kv));
    const std::string out = dir + fmt::format("/out{}", trial);
    run_and_load(w, config, out);
    auto t = [&](const std::string& name) { return load(out + "/tensors/" + name + ".npy"); };
    const Tensor kc = cache ? t("s.kv_cache") : Tensor{}, vc = cache ? t("o.kv_cache") : Tensor{};
    const Tensor want_s = matmul(t("q"), t("k"), cache ? &kc : nullptr, heads, true, npusim::default_requant_shift(dh));
    check_close(t("s"), want_s, true);
    const std::uint32_t k_av = cache ? cache : seq;
    check_close(t("o"), matmul(t("p"), t("v"), cache ? &vc : nullptr, heads, false, npusim::default_requant_shift(k_av)),
                true);
  }
}
