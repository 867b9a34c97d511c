// Whole-WRAM co blocks are chosen exactly when the input re-reads they save exceed the
// layer's weights (LayerTiler, docs/workload-format.md "How layers are compiled").
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "apps/compiler/planning/LayerPlacement.h"
#include "apps/frontend/WorkloadReader.h"
#include "e2e/NpusimProcess.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;

namespace {
// DRAM bytes of a layer tiled with `block`-channel passes: the input once per pass, the weights once.
std::uint64_t moved(std::uint64_t input, std::uint64_t weights_per_co, std::uint32_t co, std::uint32_t block) {
  return input * ((co + block - 1) / block) + weights_per_co * co;
}
}  // namespace

TEST_CASE("compiler: co blocks use all of WRAM only when that moves fewer DRAM bytes", "[compiler][tiling]") {
  const HardwareConfig hw = load_hardware_config(source_path("configs/default.json"));
  const std::uint64_t wram = hw.kinds().front()->wram.capacity_bytes;
  // tokens x features -> n: fc over many positions (A large) and over few (weights dominate),
  // and a late ResNet-50 conv (7x7x512, 3x3 kernel).
  struct Case {
    std::uint32_t h, w, c, n, k;
  };
  for (const Case& c : {Case{2048, 1, 4096, 4096, 1}, Case{2048, 1, 11008, 4096, 1}, Case{4, 1, 4096, 4096, 1},
                        Case{7, 7, 512, 512, 3}, Case{512, 1, 768, 3072, 1}}) {
    const std::string type = c.k == 1 ? R"("type": "fc", "n": )" : R"("type": "conv", "k": 3, "padding": 1, "co": )";
    const std::string text = fmt::format(R"({{"name": "t", "input": {{"h": {}, "w": {}, "c": {}}},
      "layers": [{{"name": "x", {}{}}}]}})", c.h, c.w, c.c, type, c.n);
    const Workload w = parse_workload_json(text, "t.json");
    const LayerTiling t = tile_layer(w, w.layers.at(0), hw);
    INFO(fmt::format("{}x{}x{} -> {} (k {}): co block {}, in half {}", c.h, c.w, c.c, c.n, c.k, t.co_block, t.weights_in_half));
    const std::uint64_t per_co = std::uint64_t(c.k) * c.k * c.c, input = std::uint64_t(c.h) * c.w * c.c;
    // The two candidates, aligned to the 16 slaves as the tiler aligns them.
    const auto block_of = [](std::uint64_t fit) { return std::uint32_t(fit >= 16 ? fit / 16 * 16 : fit); };
    const std::uint32_t half = block_of(wram / 2 / per_co), whole = block_of(wram / per_co);
    if (c.n <= wram / 2 / per_co) {
      CHECK(t.co_blocks == 1);
      continue;
    }
    const bool whole_moves_less = moved(input, per_co, c.n, whole) < moved(input, per_co, c.n, half) &&
                                  input * ((c.n + half - 1) / half - (c.n + whole - 1) / whole) > per_co * c.n;
    CHECK(t.co_block == (whole_moves_less ? whole : half));
    CHECK(t.weights_in_half == !whole_moves_less);
    CHECK(t.co_block * per_co <= (t.weights_in_half ? wram / 2 : wram));
    // The cases the rule is for: A of a 2,048-token fc is re-read per pass; a late
    // ResNet-50 conv's map is small next to its weights.
    if (c.h == 2048) CHECK_FALSE(t.weights_in_half);
    if (c.k == 3) CHECK(t.weights_in_half);
  }
}
