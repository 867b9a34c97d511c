// The worked examples of seed000 (spec §7, G1-G18), each a named test. Numbers marked [D]
// in the spec are derived there by arithmetic; they are checked here too.
#include <catch2/catch.hpp>

#include <set>
#include <utility>
#include <vector>

#include "matrix_unit/FunctionalCheck.h"
#include "matrix_unit/ConvShapes.h"
#include "matrix_unit/SeedMatrixConfig.h"
#include "models/matrix_unit/WfoldDatapath.h"
#include "models/matrix_unit/WfoldMapping.h"

using namespace npusim;
using npusim::test::conv;
using npusim::test::seed_matrix_config;

namespace {

std::uint32_t padding_for(const ChannelSplit& split, std::uint32_t candidate) {
  for (const SplitCandidate& c : split.candidates)
    if (c.bytes == candidate) return c.padding_bytes;
  FAIL("candidate " << candidate << " missing");
  return 0;
}

// Embodiment 1: ci aligned to 16 B with Bci 1, co aligned to 64, 3x3, one ho row of 16 wo.
ConvShape embodiment1() { return conv(3, 18, 16, 64, 3, 3); }
// Embodiment 2: ci 48 B (Bci 3), co aligned to 32, 3x3, one ho row of 16 wo.
ConvShape embodiment2() { return conv(3, 18, 48, 32, 3, 3); }

}  // namespace

TEST_CASE("G1 Ws is M over Pci for M 64 and Pci 4 8 16 32 64", "[matrix_unit]") {
  const std::pair<std::uint32_t, std::uint32_t> table[] = {{4, 16}, {8, 8}, {16, 4}, {32, 2}, {64, 1}};
  for (auto [pci, ws] : table) {
    MatrixUnitConfig cfg = seed_matrix_config();
    cfg.pci_candidates = {pci};
    ChannelSplit split = choose_channel_split(pci, 1000, 1, cfg);
    CHECK(split.bytes == pci);
    CHECK(split.fold == ws);
  }
}

TEST_CASE("G2 Pci for ci=48 is 16 with Ws 4 and Bci 3", "[matrix_unit]") {
  // ¶91 says "differ by not more than 16B" prefers the larger Pci, which would pick 64 here;
  // ¶92 picks 16. We follow the spec's recommended rule R1 (difference < 16 B).
  ChannelSplit split = choose_channel_split(48, 1000, 1, seed_matrix_config());
  CHECK(padding_for(split, 8) == 0);
  CHECK(padding_for(split, 16) == 0);
  CHECK(padding_for(split, 32) == 16);
  CHECK(padding_for(split, 64) == 16);
  CHECK(split.bytes == 16);
  CHECK(split.fold == 4);
  CHECK(split.blocks == 3);
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), conv(4, 16, 48, 16, 1, 1));
  CHECK(plan.pci.bytes == 16);
  CHECK(plan.ws == 4);
  CHECK(plan.bci == 3);
}

TEST_CASE("G3 Pci for ci=28 is 32 with Ws 2 and Bci 1", "[matrix_unit]") {
  ChannelSplit split = choose_channel_split(28, 1000, 1, seed_matrix_config());
  CHECK(padding_for(split, 8) == 4);
  CHECK(padding_for(split, 16) == 4);
  CHECK(padding_for(split, 32) == 4);
  CHECK(padding_for(split, 64) == 36);
  CHECK(split.bytes == 32);
  CHECK(split.fold == 2);
  CHECK(split.blocks == 1);
}

TEST_CASE("G4 Pci for ci=49 is 64 with Ws 1 and Bci 1", "[matrix_unit]") {
  ChannelSplit split = choose_channel_split(49, 1000, 1, seed_matrix_config());
  CHECK(padding_for(split, 8) == 7);
  CHECK(padding_for(split, 16) == 15);
  CHECK(padding_for(split, 32) == 15);
  CHECK(padding_for(split, 64) == 15);
  CHECK(split.bytes == 64);
  CHECK(split.fold == 1);
  CHECK(split.blocks == 1);
}

TEST_CASE("G5 data rows per W group are 3 3 2 for ci 48 96 128", "[matrix_unit]") {
  struct Row { std::uint32_t ci, pci, rows, ws; };
  const Row table[] = {{48, 16, 3, 4}, {96, 32, 3, 2}, {128, 64, 2, 1}};
  for (const Row& r : table) {
    WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), conv(4, 16, r.ci, 16, 1, 1));
    CHECK(plan.pci.bytes == r.pci);
    CHECK(plan.reads.rows_per_group == r.rows);
    CHECK(plan.ws == r.ws);  // row shape ws x Pci: 4x16, 2x32, 1x64 B
    CHECK(plan.ws * plan.pci.bytes == 64);
  }
}

TEST_CASE("G6 Fig 7a 4x9x14 reads 4 contiguous w per row with 2 zero bytes each", "[matrix_unit]") {
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), conv(4, 9, 14, 16, 1, 1));
  CHECK(plan.pci.bytes == 16);
  CHECK(plan.bci == 1);
  CHECK(plan.ws == 4);
  CHECK(plan.reads.mode == DataRowRead::Contiguous);
  CHECK(plan.reads.requests_per_group == 1);
  CHECK(plan.reads.bytes_per_request == 4 * 14);
  CHECK(plan.reads.zero_bytes_per_position == 2);
  CHECK(plan.ws * plan.pci.bytes == 64);
  CHECK(plan.reads.groups_per_input_row == 3);  // [D] ceil(9 / 4); the last holds 1 real w
  CHECK(test::wfold_int8_mismatches(seed_matrix_config(), conv(4, 9, 14, 16, 1, 1), 6) == 0);
}

TEST_CASE("G7 Fig 7b 4x9x47 needs 4 strided reads per row and 1 zero byte per last block", "[matrix_unit]") {
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), conv(4, 9, 47, 16, 1, 1));
  CHECK(plan.pci.bytes == 16);
  CHECK(plan.bci * plan.pci.bytes == 48);  // ci padded to 48 B
  CHECK(plan.reads.mode == DataRowRead::Strided);
  CHECK(plan.reads.rows_per_group == 3);
  CHECK(plan.reads.requests_per_group == 3 * 4);  // 4 requests per row, 3 rows
  CHECK(plan.reads.bytes_per_request == 16);
  CHECK(plan.reads.stride_bytes == 47);  // [D]
  CHECK(plan.reads.last_block_bytes == 15);
  CHECK(plan.reads.zero_bytes_per_position == 1);
  CHECK(test::wfold_int8_mismatches(seed_matrix_config(), conv(4, 9, 47, 16, 1, 1), 7) == 0);
}

TEST_CASE("G8 Fig 7c relay reads 4 whole w of 47 bytes and forms 3 rows", "[matrix_unit]") {
  MatrixUnitConfig cfg = seed_matrix_config();
  cfg.relay_enabled = true;
  cfg.relay_bytes = 1024;  // holds a whole first-buffer window (4 rows x 4 w x 47 B)
  WfoldPlan plan = plan_wfold_conv(cfg, conv(4, 9, 47, 16, 1, 1));
  CHECK(plan.reads.mode == DataRowRead::Relay);
  CHECK(plan.reads.requests_per_group == 4);
  CHECK(plan.reads.bytes_per_request == 47);
  CHECK(plan.reads.rows_per_group == 3);
  // Strided reads would need 12 requests per group; the relay cuts RAM reads by Bci.
  WfoldPlan strided = plan_wfold_conv(seed_matrix_config(), conv(4, 9, 47, 16, 1, 1));
  CHECK(strided.read_requests == 3 * plan.read_requests);
  CHECK(test::wfold_int8_mismatches(cfg, conv(4, 9, 47, 16, 1, 1), 8) == 0);
}

TEST_CASE("G9 kmax with L1 8 and Ncu 4 is 17 9 5 for Ws 4 2 1", "[matrix_unit]") {
  const std::pair<std::uint32_t, std::uint32_t> table[] = {{16, 17}, {32, 9}, {64, 5}};  // ci -> kmax
  const std::uint32_t ws[] = {4, 2, 1};
  for (int i = 0; i < 3; ++i) {
    WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), conv(3, 40, table[i].first, 16, 3, 3));
    CHECK(plan.ws == ws[i]);
    CHECK(plan.kmax == table[i].second);
    CHECK(plan.nkw == 3);  // kw <= kmax: Nkw = kw
  }
  // kw > kmax is split into pieces of at most kmax (¶145).
  WfoldPlan wide = plan_wfold_conv(seed_matrix_config(), conv(1, 40, 64, 16, 1, 11));
  CHECK(wide.kmax == 5);
  CHECK(wide.nkw == 5);
  REQUIRE(wide.kw_pieces.size() == 3);
  CHECK(wide.kw_pieces[2].first == 10);
  CHECK(wide.kw_pieces[2].length == 1);
}

TEST_CASE("G10 Aco with 16 slaves aligns co up to a multiple of 16", "[matrix_unit]") {
  const std::pair<std::uint32_t, std::uint32_t> table[] = {{16, 16}, {17, 32}, {48, 48}, {49, 64}, {64, 64}};
  for (auto [co, aco] : table) {
    WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), conv(1, 16, 16, co, 1, 1));
    CHECK(plan.aco == aco);
    CHECK(plan.nco == aco / 16);
  }
}

TEST_CASE("G11 output channels are dealt round robin to the slaves", "[matrix_unit]") {
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), conv(1, 16, 16, 64, 1, 1));
  for (std::uint32_t c = 0; c < 64; ++c) {
    CHECK(plan.slave_of(c).slave == c % 16);  // region 800 + c mod 16
    CHECK(plan.slave_of(c).slot == c / 16);
  }
  std::vector<std::uint32_t> sl0;
  for (std::uint32_t slot = 0; slot < plan.nco; ++slot) sl0.push_back(plan.co_in_round(0, slot));
  CHECK(sl0 == std::vector<std::uint32_t>{0, 16, 32, 48});
  WfoldPlan narrow = plan_wfold_conv(seed_matrix_config(), conv(1, 16, 16, 32, 1, 1));
  sl0.clear();
  for (std::uint32_t slot = 0; slot < narrow.nco; ++slot) sl0.push_back(narrow.co_in_round(0, slot));
  CHECK(sl0 == std::vector<std::uint32_t>{0, 16});
}

TEST_CASE("G12 64 co per round on 16 slaves gives 4 co per slave and input reuse 4", "[matrix_unit]") {
  // The seed's "Pco" of ¶134 is the per-round co count (spec §10 item 4).
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), conv(1, 16, 16, 64, 1, 1));
  CHECK(plan.nco == 4);
  CHECK(plan.input_reuse_in_slave == 4);
}

TEST_CASE("G13 Embodiment 1 maps 64 co x 16 wo in Ncycle 36", "[matrix_unit]") {
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), embodiment1());
  CHECK(plan.pci.bytes == 16);
  CHECK(plan.ws == 4);
  CHECK(plan.bci == 1);
  CHECK(plan.aco == 64);
  CHECK(plan.nco == 4);
  CHECK(plan.nkw == 3);
  CHECK(plan.kmax == 17);
  CHECK(plan.nkh == 3);
  CHECK(plan.ncycle == 36);
  // SL0 handles co 0, 16, 32, 48.
  for (std::uint32_t slot = 0; slot < 4; ++slot) CHECK(plan.co_in_round(0, slot) == 16 * slot);
  // CU u computes wo 4u .. 4u+3.
  for (std::uint32_t u = 0; u < 4; ++u) CHECK(plan.cu_first_wo(u) == 4 * u);
  CHECK(plan.input_reuse_in_slave == 4);
  CHECK(plan.weight_reuse_in_slave == 16);
  // Totals: 16 slaves x 4 co = 64 co, each with Ncu*Ws = 16 wo, in a single tile.
  CHECK(plan.ns * plan.nco == 64);
  CHECK(plan.wo_per_tile == 16);
  CHECK(plan.wo == 16);
  CHECK(plan.tiles == 1);
  // Second-buffer rows, k-th weight row of the tile in loop order kh, kw, co (¶165-¶176).
  auto row = [&](std::uint32_t kh, std::uint32_t kw, std::uint32_t slot) {
    return plan.second_buffer_row((kh * 3 + kw) * 4 + slot);
  };
  CHECK(row(0, 0, 0) == 0);
  CHECK(row(0, 0, 1) == 1);
  CHECK(row(0, 1, 0) == 4);
  for (std::uint32_t slot = 0; slot < 4; ++slot) CHECK(row(0, 2, slot) == slot);  // overwrites kw 0
  CHECK(row(1, 0, 0) == 4);
  // [D] MAC check: 36 cycles x 16 SL x 4 CU x 64 lanes, all useful.
  CHECK(plan.macs.issued == 147456);
  CHECK(plan.macs.useful == 147456);
  CHECK(plan.cycles.compute == 36);
  CHECK(test::wfold_int8_mismatches(seed_matrix_config(), embodiment1(), 13) == 0);
}

TEST_CASE("G14 Embodiment 1 writes the third buffer wo first and reads out co first", "[matrix_unit]") {
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), embodiment1());
  // SL0 third buffer: co0 w0-15, co16 w0-15, co32 w0-15, co48 w0-15.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sl0(64);
  for (std::uint32_t slot = 0; slot < 4; ++slot)
    for (std::uint32_t wo = 0; wo < 16; ++wo)
      sl0.at(plan.third_buffer_index(slot, wo)) = {plan.co_in_round(0, slot), wo};
  for (std::uint32_t i = 0; i < 64; ++i) {
    CHECK(sl0[i].first == 16 * (i / 16));
    CHECK(sl0[i].second == i % 16);
  }
  // Readout: for wo, for co 0..63 rotating over SL0..SL15: SL(co mod 16).resbuf[(co div 16)*16 + wo].
  for (std::uint32_t wo = 0; wo < 16; ++wo)
    for (std::uint32_t co = 0; co < 64; ++co) {
      auto where = plan.slave_of(co);
      CHECK(where.slave == co % 16);
      CHECK(plan.third_buffer_index(where.slot, wo) == (co / 16) * 16 + wo);
    }
}

TEST_CASE("G15 Embodiment 2 maps 32 co x 16 wo in Ncycle 54", "[matrix_unit]") {
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), embodiment2());
  CHECK(plan.pci.bytes == 16);
  CHECK(plan.bci == 3);
  CHECK(plan.aco == 32);
  CHECK(plan.nco == 2);
  CHECK(plan.co_in_round(0, 0) == 0);
  CHECK(plan.co_in_round(0, 1) == 16);
  CHECK(plan.input_reuse_in_slave == 2);
  CHECK(plan.weight_reuse_in_slave == 16);
  CHECK(plan.ncycle == 54);
  // ¶190 says one output point per CU; the spec (§10 item 2) recommends 4 per CU as in
  // ¶137/¶188/¶191, which is what we model: CU0 w0-3 ... CU3 w12-15.
  for (std::uint32_t u = 0; u < 4; ++u) CHECK(plan.cu_first_wo(u) == 4 * u);
  // The first window is hi 0, bci 0, starting at wi 0; the four CU rows cover wi 0-15
  // and the 3x3 kernel needs one more row for the kw slide.
  CHECK(plan.kw_pieces.size() == 1);
  CHECK(plan.kw_pieces[0].data_rows == 5);
  CHECK(plan.ns * plan.nco == 32);
  CHECK(plan.wo_per_tile == 16);
  CHECK(plan.macs.issued == 221184);  // [D] 54 x 16 x 4 x 64
  CHECK(plan.macs.useful == 221184);
  CHECK(test::wfold_int8_mismatches(seed_matrix_config(), embodiment2(), 15) == 0);
}

TEST_CASE("G16 Fig 13 stride 2 folds 4x5xci into 4x3x2ci and gives wo 2", "[matrix_unit]") {
  const std::uint32_t ci = 7;
  ConvShape s = conv(4, 5, ci, 3, 3, 3, 1, 2);
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), s);
  CHECK(plan.stride.extra_right_pad == 1);  // w5 = 0
  CHECK(plan.stride.folded_wi == 3);        // 4*5*ci -> 4*3*2ci
  CHECK(plan.stride.folded_ci == 2 * ci);
  CHECK(plan.stride.folded_kw == 2);        // co*3*3*ci -> co*3*2*2ci
  CHECK(plan.stride.kernel_zero_taps == 1); // kw3 = 0
  CHECK(plan.stride.folded_wo == 2);
  CHECK(plan.wo == 2);
  CHECK(plan.ho == 2);  // with sh = 1 ([D]; the text gives no sh)
  // wo0 = w0..2 x kw0..2 and wo1 = w2..4 x kw0..2: the datapath equals the direct conv.
  CHECK(test::wfold_int8_mismatches(seed_matrix_config(), s, 16) == 0);
  // [D] caveat: wi 5, kw 2, sw 2 folds to 3 outputs of which only 2 are real.
  WfoldPlan caveat = plan_wfold_conv(seed_matrix_config(), conv(1, 5, ci, 3, 1, 2, 1, 2));
  CHECK(caveat.stride.folded_wo == 3);
  CHECK(caveat.wo == 2);
  CHECK(test::wfold_int8_mismatches(seed_matrix_config(), conv(1, 5, ci, 3, 1, 2, 1, 2), 16) == 0);
}

TEST_CASE("G17 Fig 4 6x6x3 input with 3x3x3 kernel gives 4x4 output", "[matrix_unit]") {
  ConvShape s = conv(6, 6, 3, 1, 3, 3);
  WfoldPlan plan = plan_wfold_conv(seed_matrix_config(), s);
  CHECK(plan.ho == 4);
  CHECK(plan.wo == 4);
  // x[h][w][c] = h + w + c and an all-ones kernel: each output sums 27 window values,
  // y(jh, jw) = sum over i, j, c < 3 of (jh + i + jw + j + c) = 27 (jh + jw) + 81.
  std::vector<std::int8_t> x(6 * 6 * 3), k(27, 1);
  for (int h = 0; h < 6; ++h)
    for (int w = 0; w < 6; ++w)
      for (int c = 0; c < 3; ++c) x[(h * 6 + w) * 3 + c] = static_cast<std::int8_t>(h + w + c);
  std::vector<std::int32_t> y(16, -1);
  run_wfold_conv(plan, s, x.data(), k.data(), y.data());
  for (int jh = 0; jh < 4; ++jh)
    for (int jw = 0; jw < 4; ++jw) CHECK(y[jh * 4 + jw] == 27 * (jh + jw) + 81);
}

TEST_CASE("G18 Wfold results equal formula (1) after filtering for every worked shape", "[matrix_unit]") {
  MatrixUnitConfig relay = seed_matrix_config();
  relay.relay_enabled = true;
  relay.relay_bytes = 4096;
  const ConvShape shapes[] = {embodiment1(), embodiment2(), conv(4, 9, 14, 5, 3, 3),
                              conv(4, 9, 47, 17, 3, 3), conv(4, 5, 7, 3, 3, 3, 2, 2),
                              conv(5, 20, 28, 49, 2, 2), conv(3, 21, 49, 16, 3, 3)};
  std::uint32_t seed = 100;
  for (const ConvShape& s : shapes) {
    INFO(s.to_string());
    CHECK(test::wfold_int8_mismatches(seed_matrix_config(), s, seed++) == 0);
    CHECK(test::wfold_int8_mismatches(relay, s, seed++) == 0);
  }
}
