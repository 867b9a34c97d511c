// Issue 33: the master's NRAM requests as seed000 §3.4 counts them (G6-G8 as timed request
// sequences), the relay of §1.5 as a timed block, and the write-back requests of §3.7 in
// cycles, under the fast model and the cycle-stepped reference alike.
#include <catch2/catch.hpp>

#include <vector>

#include "matrix_unit/ConvShapes.h"
#include "matrix_unit/SeedMatrixConfig.h"
#include "models/matrix_unit/Explain.h"
#include "models/matrix_unit/MasterReads.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "models/matrix_unit/stepped/CycleSteppedMatrixUnit.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;
using npusim::test::conv;
using npusim::test::seed_matrix_config;

namespace {

MatrixUnitConfig with_relay(MatrixUnitConfig cfg) {
  cfg.relay_enabled = true;
  cfg.relay_bytes = 1024;  // a whole first-buffer window: 4 rows x 4 w x 47 B
  return cfg;
}

Cycles stepped_total(const MatrixUnitConfig& cfg, const ConvShape& layer) {
  return run_cycle_stepped_conv(cfg, plan_wfold_conv(cfg, layer), ResultRequant{}).total;
}

void check_read(const TimedRead& r, TimedRead::Kind kind, std::uint64_t offset, std::uint32_t bytes,
                std::uint32_t zeros, Cycles start) {
  CHECK(r.kind == kind);
  CHECK(r.offset == offset);
  CHECK(r.bytes == bytes);
  CHECK(r.zero_bytes == zeros);
  CHECK(r.start == start);
  CHECK(r.end == start + 1);
}

}  // namespace

TEST_CASE("G6 timed: Fig 7a's W group is one request of 4 contiguous w in one cycle", "[matrix_unit][requests]") {
  const MatrixUnitConfig cfg = seed_matrix_config();
  const WfoldPlan plan = plan_wfold_conv(cfg, conv(4, 9, 14, 16, 1, 1));
  const std::vector<TimedRead> reads = group_read_sequence(plan, cfg);
  REQUIRE(reads.size() == 1);
  check_read(reads[0], TimedRead::Kind::Ram, 0, 64, 4 * 2, 0);  // 56 B read, 2 B of zeros after each w
  // A narrower NRAM port splits the one seed request ("or several", ¶103).
  MatrixUnitConfig narrow = cfg;
  narrow.nram_read.request_bytes = 32;
  const std::vector<TimedRead> split = group_read_sequence(plan, narrow);
  REQUIRE(split.size() == 2);
  CHECK(split[0].bytes == 28);
  CHECK(split[1].offset == 28);
  CHECK(split[1].end == 2);
}

TEST_CASE("G7 timed: Fig 7b's W group is 12 requests of 16 B at a 47-B stride, 1 B of zeros in the last block",
          "[matrix_unit][requests]") {
  const MatrixUnitConfig cfg = seed_matrix_config();
  const WfoldPlan plan = plan_wfold_conv(cfg, conv(4, 9, 47, 16, 1, 1));
  const std::vector<TimedRead> reads = group_read_sequence(plan, cfg);
  REQUIRE(reads.size() == 12);
  for (std::uint32_t b = 0; b < 3; ++b)
    for (std::uint32_t j = 0; j < 4; ++j) {
      INFO("block " << b << ", w" << j);
      const TimedRead& r = reads[b * 4 + j];
      check_read(r, TimedRead::Kind::Ram, j * 47 + b * 16, 16, b == 2 ? 1 : 0, b * 4 + j);
      CHECK(r.row == b);
      CHECK_FALSE(r.into_relay);
    }
}

TEST_CASE("G8 timed: Fig 7c's relay takes 4 requests of 47 B, then gives 3 rows out", "[matrix_unit][requests]") {
  const MatrixUnitConfig cfg = with_relay(seed_matrix_config());
  const WfoldPlan plan = plan_wfold_conv(cfg, conv(4, 9, 47, 16, 1, 1));
  const std::vector<TimedRead> reads = group_read_sequence(plan, cfg);
  REQUIRE(reads.size() == 7);
  for (std::uint32_t j = 0; j < 4; ++j) {
    check_read(reads[j], TimedRead::Kind::Ram, j * 47, 47, 0, j);
    CHECK(reads[j].into_relay);
  }
  for (std::uint32_t b = 0; b < 3; ++b) {
    check_read(reads[4 + b], TimedRead::Kind::RelayRow, 0, 64, b == 2 ? 4 : 0, 4 + b);
    CHECK(reads[4 + b].row == b);
  }
  // Slower relay registers stretch only their own accesses.
  MatrixUnitConfig slow = cfg;
  slow.relay.write_cycles = 3;
  slow.relay.read_cycles = 2;
  CHECK(group_read_sequence(plan, slow).back().end == 4 * 3 + 3 * 2);
}

// One tile of 16 w (Ncu 4 x Ws 4), a 1x1 kernel, co 16 on 16 slaves (Nco 1), ci 47: three windows
// of 4 data rows (one per Pci block), two first-buffer slots, 16 write requests of 64 B (int32).
// Worked by hand from rules 1-10 of docs/fidelity.md (bus and latencies 2, MAC latency 4):
// - requests free: windows on the bus [0,4) [4,8) [8,12), usable 6, 10, 14; computes 6, 10, 14;
//   write-back 19-35, end 37;
// - strided reads (16 requests of one cycle per window): reads [0,16) [16,32) [32,48), usable 18,
//   34, 50; last compute 50; write-back 55-71, end 73;
// - relay: window 0 is 16 requests into the relay and 4 rows out [0,20), windows 1 and 2 are
//   4 rows out [20,24) [24,28); usable 22, 26, 30; write-back 35-51, end 53.
TEST_CASE("requests in cycles: ci 47 takes 37 cycles with free reads, 73 strided, 53 with the relay",
          "[matrix_unit][requests]") {
  const ConvShape layer = conv(1, 16, 47, 16, 1, 1);
  MatrixUnitConfig free_reads = seed_matrix_config();
  free_reads.nram_read.request_cycles = 0;
  const MatrixUnitConfig strided = seed_matrix_config();
  const MatrixUnitConfig relay = with_relay(seed_matrix_config());
  CHECK(plan_wfold_conv(free_reads, layer).cycles.total == 37);
  CHECK(plan_wfold_conv(strided, layer).cycles.total == 73);
  CHECK(plan_wfold_conv(relay, layer).cycles.total == 53);
  CHECK(stepped_total(free_reads, layer) == 37);
  CHECK(stepped_total(strided, layer) == 73);
  CHECK(stepped_total(relay, layer) == 53);
  // NRAM requests: 3 windows x 16 strided, or 16 into the relay.
  CHECK(plan_wfold_conv(strided, layer).read_requests == 48);
  CHECK(plan_wfold_conv(relay, layer).read_requests == 16);
}

TEST_CASE("requests in cycles: contiguous reads at the default request width cost what the bus costs",
          "[matrix_unit][requests]") {
  // ci 16: Bci 1, one 64-B request per data row, as fast as a 64 B/cycle bus: no window waits for reads.
  MatrixUnitConfig free_reads = seed_matrix_config();
  free_reads.nram_read.request_cycles = 0;
  const ConvShape layer = conv(3, 34, 16, 64, 3, 3);
  CHECK(plan_wfold_conv(seed_matrix_config(), layer).cycles.total == plan_wfold_conv(free_reads, layer).cycles.total);
}

// §3.7: a round holding every co of more than Pco bytes writes Wso * ceil(co / Pco) requests
// per group of Wso positions, each ceil(Pco / write-back width) cycles.
TEST_CASE("write-back requests in cycles: Wso x ceil(co / Pco) requests per group, contiguous when co <= Pco",
          "[matrix_unit][requests]") {
  MatrixUnitConfig cfg = seed_matrix_config();
  cfg.co_block = 128;  // one round: every co of the layer
  cfg.write_back.bytes_per_cycle = 16;
  // co 96 requantized to int8: Pco 32 (Wso 2), 3 blocks per position; 16 w in one tile.
  const WfoldPlan wide = plan_wfold_conv(cfg, conv(1, 16, 16, 96, 1, 1), true);
  REQUIRE(wide.pco.bytes == 32);
  REQUIRE(wide.pco.fold == 2);
  CHECK(wide.write_requests == 8 * 2 * 3);  // 8 groups of Wso 2 positions x 3 Pco blocks
  const TileTimes& t = wide.pipeline.tiles.at(0);
  CHECK(t.write_end - t.write_start == 48 * 2 + cfg.write_back.latency);  // 32 B at 16 B/cycle
  const SteppedTileTimes s = run_cycle_stepped_conv(cfg, wide, ResultRequant{true, 0, false}).tiles.at(0);
  CHECK(s.write_end - s.write_start == 48 * 2 + cfg.write_back.latency);
  // co 16 requantized: Pco 16, Wso 4, contiguous: one 64-B request per 4 w (¶152).
  const WfoldPlan narrow = plan_wfold_conv(cfg, conv(1, 16, 16, 16, 1, 1), true);
  REQUIRE(narrow.pco.fold == 4);
  CHECK(narrow.write_requests == 4);
  const TileTimes& n = narrow.pipeline.tiles.at(0);
  CHECK(n.write_end - n.write_start == 4 * 4 + cfg.write_back.latency);
}

// Fig. 7's layer as one tile: 3 windows (Pci blocks) of 4 data rows. Strided: 3 x 4 x 4 = 48
// requests of one cycle; relay: 4 x 4 = 16 requests into it, then 3 x 4 = 12 rows out of it.
// The relay needs Ws x ci' = 4 x 47 = 188 B per group and 4 x 188 = 752 B to keep a window.
TEST_CASE("explain: requests per tile on the load path with and without the relay, and the relay's size",
          "[matrix_unit][requests][explain]") {
  HardwareConfig hw = default_hardware_config();
  hw.core.block<MatrixUnitConfig>("matrix") = seed_matrix_config();
  const std::string strided = explain_conv_layer(hw, conv(1, 16, 47, 16, 1, 1));
  INFO(strided);
  CHECK_THAT(strided, Catch::Contains("load path: strided: 48 NRAM requests, 48 NRAM-port cycles; instead relay: 16 NRAM "
                                      "requests, 16 NRAM-port cycles, 12 relay rows, 12 relay-port cycles"));
  // Requantized to int8 on the result path: co 16 is one Pco of 16 B, Wso 4: 4 requests of 64 B.
  CHECK_THAT(strided, Catch::Contains("write-back: 4 requests, 4 port cycles"));
  CHECK_THAT(strided, Catch::Contains("needs at least Ws*ci' = 188 B for one group (¶111), 752 B to keep a window"));
  hw.core.block<MatrixUnitConfig>("matrix") = with_relay(seed_matrix_config());
  const std::string relay = explain_conv_layer(hw, conv(1, 16, 47, 16, 1, 1));
  CHECK_THAT(relay, Catch::Contains("load path: relay: 16 NRAM requests, 16 NRAM-port cycles, 12 relay rows, 12 "
                                    "relay-port cycles; instead strided: 48 NRAM requests"));
  CHECK_THAT(explain_conv_layer(hw, conv(1, 16, 16, 16, 1, 1)), Catch::Contains("relay      not needed: Bci = 1"));
}

// The relay and the third buffer are priced per access (register_file actions of the matrix
// engine): Fig. 7's layer writes 16 x 47 B of whole positions into the relay and reads 12 rows of
// 64 B out; each of its 3 compute cycles updates Ncu 4 x Ws 4 accumulators of 4 B in 16 slaves.
TEST_CASE("energy counts: relay bytes written and read, third-buffer accumulator bytes", "[matrix_unit][requests][energy]") {
  const WfoldPlan relay = plan_wfold_conv(with_relay(seed_matrix_config()), conv(1, 16, 47, 16, 1, 1));
  CHECK(relay.relay_bytes_written == 16 * 47);
  CHECK(relay.relay_rows * relay.m_bytes == 12 * 64);
  CHECK(relay.third_buffer_bytes == 3 * 16 * 4 * 4 * 4);
  const WfoldPlan strided = plan_wfold_conv(seed_matrix_config(), conv(1, 16, 47, 16, 1, 1));
  CHECK(strided.relay_bytes_written == 0);
  CHECK(strided.relay_rows == 0);
}

// The readout reads each slave's result set (Nco slots x Ncu*Ws accumulators of 4 B, padding
// included) to reorder and filter it; the write-back port is held until both it and the
// requests are through. co 16 on 16 slaves: Nco 1, 16 w: 64 B per slave.
TEST_CASE("readout in cycles: a slow readout holds the write-back port longer than its requests",
          "[matrix_unit][requests]") {
  MatrixUnitConfig cfg = seed_matrix_config();
  cfg.write_back.bytes_per_cycle = 16;  // 4 requests of 64 B (int8, Wso 4): 16 cycles
  const ConvShape layer = conv(1, 16, 16, 16, 1, 1);
  for (const double rate : {64.0, 8.0, 2.0}) {
    cfg.readout_bytes_per_cycle = rate;
    const Cycles held = std::max<Cycles>(16, Cycles(64 / rate));  // 1, 8 or 32 cycles of readout
    INFO("readout " << rate << " B/cycle per slave");
    const WfoldPlan plan = plan_wfold_conv(cfg, layer, true);
    const TileTimes& t = plan.pipeline.tiles.at(0);
    CHECK(t.write_end - t.write_start == held + cfg.write_back.latency);
    const SteppedTileTimes s = run_cycle_stepped_conv(cfg, plan, ResultRequant{true, 0, false}).tiles.at(0);
    CHECK(s.write_end - s.write_start == held + cfg.write_back.latency);
  }
}

// Two output rows of Fig. 7's layer through the relay, two first-buffer slots. By hand:
// row 0: w0 NRAM [0,16), relay [16,20), usable 22; w1 relay [20,24), usable 26; w2 (slot 0 free
// at 23) relay [24,28), usable 30; row 1: w3 (slot 1 free at 27) NRAM [27,43) while the relay is
// still busy with w2, relay [43,47), usable 49; w4 relay [47,51), usable 53; w5 (slot 1 free at
// 50) relay [51,55), usable 57; last compute 57, write-back 62-78, end 80. Were the relay's reads
// on the NRAM port, w3 could start its requests only at 28 and the layer would end at 81.
TEST_CASE("relay timing: its own read port overlaps the next window's NRAM requests", "[matrix_unit][requests]") {
  const MatrixUnitConfig cfg = with_relay(seed_matrix_config());
  const ConvShape layer = conv(2, 16, 47, 16, 1, 1);
  const WfoldPlan plan = plan_wfold_conv(cfg, layer);
  REQUIRE(plan.pipeline.window_slots == 2);
  CHECK(plan.pipeline.tiles.at(1).first_compute == 49);
  CHECK(plan.cycles.total == 80);
  CHECK(stepped_total(cfg, layer) == 80);
}
