// Properties of WfoldPlan beyond the seed's worked examples: accounting identities,
// the cycle estimate's bounds, the padding rules at their edges, and mapping errors.
#include <catch2/catch.hpp>

#include <random>

#include "matrix_unit/ConvShapes.h"
#include "matrix_unit/SeedMatrixConfig.h"
#include "models/matrix_unit/Explain.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;
using npusim::test::conv;
using npusim::test::seed_matrix_config;

TEST_CASE("Wfold MAC breakdown adds up and matches the compute cycles", "[matrix_unit]") {
  std::mt19937 rng(77);
  for (int i = 0; i < 300; ++i) {
    MatrixUnitConfig cfg = seed_matrix_config();
    cfg.slaves = 1 + rng() % 16;
    cfg.cus_per_slave = 1 + rng() % 4;
    cfg.first_buffer_rows = cfg.cus_per_slave + rng() % 5;
    cfg.co_block = 1 + rng() % 100;
    cfg.third_buffer_bytes = 1u << 20;
    ConvShape s = conv(3 + rng() % 20, 3 + rng() % 40, 1 + rng() % 300, 1 + rng() % 200,
                       1 + rng() % 3, 1 + rng() % 3, 1 + rng() % 4, 1 + rng() % 4);
    s.n = 1 + rng() % 2;
    WfoldPlan p = plan_wfold_conv(cfg, s);
    INFO(s.to_string());
    const MacBreakdown& m = p.macs;
    // Useful MACs counted independently from the plan: n * ho * wo * co * kh * kw * ci.
    std::uint64_t ho = (s.hi - s.kh) / s.sh + 1, wo = (s.wi - s.kw) / s.sw + 1;
    CHECK(m.useful == s.n * ho * wo * s.co * s.kh * s.kw * s.ci);
    CHECK(m.useful + m.wo_alignment + m.co_alignment + m.stride_fold + m.pci_padding == m.issued);
    CHECK(m.issued == p.cycles.compute * p.ns * p.ncu * p.lanes);
    CHECK(p.cycles.total >= p.cycles.compute);
    CHECK(p.cycles.total >= p.cycles.write_back);
    CHECK(double(p.cycles.total) * cfg.broadcast_bus.bytes_per_cycle >= double(p.broadcast_bytes));
    CHECK(p.mac_utilization <= 1.0);
    CHECK(p.output_bytes == s.n * ho * wo * s.co * 4);
  }
}

TEST_CASE("Wfold cycle estimate gets no worse with faster buses", "[matrix_unit]") {
  ConvShape s = conv(56, 56, 64, 64, 3, 3);
  s.pad_top = s.pad_bottom = s.pad_left = s.pad_right = 1;
  MatrixUnitConfig slow = seed_matrix_config();
  slow.broadcast_bus.bytes_per_cycle = 8;
  slow.distribution_bus.bytes_per_cycle = 4;
  MatrixUnitConfig fast = slow;
  fast.broadcast_bus.bytes_per_cycle = 256;
  fast.distribution_bus.bytes_per_cycle = 256;
  WfoldPlan a = plan_wfold_conv(slow, s), b = plan_wfold_conv(fast, s);
  CHECK(a.cycles.compute == b.cycles.compute);
  CHECK(a.cycles.total > b.cycles.total);
  CHECK(a.cycles.input_fill > b.cycles.input_fill);
  // ci 64 needs no padding at any Pci, so Pci 64 and Ws 1: 56 wo in tiles of Ncu*Ws = 4.
  CHECK(b.pci.bytes == 64);
  CHECK(b.wo_tiles == 14);
  CHECK(b.cycles.compute == 56ull * 14 * b.ncycle_per_tile);
}

TEST_CASE("Pci choice keeps W / Ws >= 1 and honours the tolerance", "[matrix_unit]") {
  // ci 4: paddings 8:4 16:12 32:28 64:60, so R1 picks 16 (12 - 4 < 16) on a wide input ...
  CHECK(plan_wfold_conv(seed_matrix_config(), conv(1, 40, 4, 1, 1, 1)).pci.bytes == 16);
  // ... but a 2-wide input only admits Ws <= 2 (¶86): 32 (28) and 64 (60) remain -> 32.
  CHECK(plan_wfold_conv(seed_matrix_config(), conv(1, 2, 4, 1, 1, 1)).pci.bytes == 32);
  // A zero tolerance takes the least padding, larger Pci on ties: ci 49 -> 8 (7 B).
  MatrixUnitConfig strict = seed_matrix_config();
  strict.pci_padding_tolerance = 0;
  CHECK(plan_wfold_conv(strict, conv(1, 40, 49, 1, 1, 1)).pci.bytes == 8);
  CHECK(plan_wfold_conv(strict, conv(1, 40, 48, 1, 1, 1)).pci.bytes == 16);
  // float32 counts channel bytes: ci 12 floats = 48 B -> Pci 16 B = 4 floats.
  ConvShape f = conv(1, 40, 12, 1, 1, 1);
  f.element_bytes = 4;
  WfoldPlan fp = plan_wfold_conv(seed_matrix_config(), f);
  CHECK(fp.pci.bytes == 16);
  CHECK(fp.pci_elems == 4);
  CHECK(fp.lanes == 16);
  CHECK(fp.bci == 3);
}

TEST_CASE("Wfold write-back is contiguous up to Pco and strided beyond", "[matrix_unit]") {
  // co 8 int32 = 32 B: Pco 32, Wso 2 -> one request per 2 w; 16 wo -> 8 requests.
  WfoldPlan narrow = plan_wfold_conv(seed_matrix_config(), conv(1, 16, 16, 8, 1, 1));
  CHECK(narrow.pco.bytes == 32);
  CHECK(narrow.pco.fold == 2);
  CHECK(narrow.write_requests == 8);
  // co 64 int32 = 256 B: Pco 64, Wso 1 -> 4 requests per w; 16 wo -> 64 requests.
  WfoldPlan wide = plan_wfold_conv(seed_matrix_config(), conv(1, 16, 16, 64, 1, 1));
  CHECK(wide.pco.bytes == 64);
  CHECK(wide.write_requests == 64);
}

TEST_CASE("Wfold mapping rejects configs and layers it cannot map", "[matrix_unit]") {
  MatrixUnitConfig few_rows = seed_matrix_config();
  few_rows.first_buffer_rows = 3;
  CHECK_THROWS_AS(plan_wfold_conv(few_rows, conv(3, 18, 16, 64, 3, 3)), InputError);
  MatrixUnitConfig small_result = seed_matrix_config();
  small_result.third_buffer_bytes = 128;  // a round needs 4 co x 16 wo x 4 B = 256 B
  CHECK_THROWS_WITH(plan_wfold_conv(small_result, conv(3, 18, 16, 64, 3, 3)),
                    Catch::Contains("third buffer"));
  MatrixUnitConfig odd = seed_matrix_config();
  odd.pci_candidates = {48};
  CHECK_THROWS_AS(plan_wfold_conv(odd, conv(3, 18, 16, 64, 3, 3)), InputError);
  CHECK_THROWS_AS(plan_wfold_conv(seed_matrix_config(), conv(2, 18, 16, 64, 3, 3)), InputError);
}

TEST_CASE("explain reports the Embodiment 1 mapping", "[matrix_unit]") {
  HardwareConfig hw = default_hardware_config();
  hw.core.block<MatrixUnitConfig>("matrix") = seed_matrix_config();
  ConvShape s = conv(3, 18, 16, 64, 3, 3);
  std::string text = explain_conv_layer(hw, s);
  INFO(text);
  CHECK_THAT(text, Catch::Contains("-> Pci=16 B, Ws=4, blocks=1"));
  CHECK_THAT(text, Catch::Contains("Aco        64"));
  CHECK_THAT(text, Catch::Contains("L1*Ws - Ncu*Ws + 1 = 17"));
  CHECK_THAT(text, Catch::Contains("Nco=4 (inner) x Nkw=3 (middle) x Nkh=3 x Nci=1 (outer) = Ncycle 36"));
  CHECK_THAT(text, Catch::Contains("Ncu 4 x Ws 4 = 16 per slave"));
  CHECK_THAT(text, Catch::Contains("useful 147456 (100.0%)"));
  CHECK_THAT(text, Catch::Contains("slaves 0-15: 4 co each;"));  // 64 co over 16 slaves
  // 200 co in rounds of 64: 3 full rounds (4 each) + 8 co on slaves 0..7 -> 13 vs 12.
  CHECK_THAT(explain_conv_layer(hw, conv(3, 18, 16, 200, 3, 3)),
             Catch::Contains("slaves 0-7: 13 co each; slaves 8-15: 12 co each;"));
  ConvShape strided = conv(4, 5, 7, 3, 3, 3, 1, 2);
  CHECK_THAT(explain_conv_layer(hw, strided), Catch::Contains("folded wo 2 -> true wo 2"));
}
