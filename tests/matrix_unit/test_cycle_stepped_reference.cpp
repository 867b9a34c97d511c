// The cycle-stepped reference of the Wfold matrix unit (models/matrix_unit/stepped,
// docs/fidelity.md): its results against a direct convolution over random layers and
// configs, its times against expectations worked out by hand from the rules, and the
// invariants every run keeps.
//
// Time convention of the rules, used in every expectation below: a transfer whose last
// byte moves in cycle e, with latency L, is usable from cycle e + 1 + L; results of a last
// compute cycle c are complete from cycle c + 1 + mac_latency; a write-back whose last
// request cycle is e ends at e + 1 + latency; a slot used last in cycle c is free from c + 1.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <random>
#include <sstream>
#include <stdexcept>

#include "matrix_unit/RandomTimingCases.h"
#include "models/matrix_unit/stepped/CycleSteppedMatrixUnit.h"
#include "reference/ReferenceConv.h"
#include "sim/common/InputError.h"

using namespace npusim;
using namespace npusim::test;

namespace {

// A 1x1 int8 layer of `tiles` wo tiles on one output row, co = 16. On timing_config():
// ci a multiple of 64 gives Pci = 64, Ws = 1, Bci = ci / 64; windows of 4 data rows
// (256 B); Nco = 4 weight rows of 64 B per kw step; Pco = 64 B, Wso = 1 and co*4 = 64 B,
// so a tile writes 4 contiguous requests of 64 B (one per wo).
ConvShape one_by_one(std::uint32_t ci, std::uint32_t tiles) {
  return parse_conv_spec("hi=1,wi=" + std::to_string(4 * tiles) + ",ci=" + std::to_string(ci) + ",co=16,k=1");
}

constexpr Cycles kNco = 4;
constexpr double kWindowBytes = 4 * 64.0;
constexpr double kWeightRowBytes = 64.0;
constexpr Cycles kRequestsPerTile = 4;

// Rules 1 and 3 for a transfer stream that starts in cycle `start` and is never blocked:
// the first `bytes` have moved by cycle start + ceil(bytes / rate) - 1.
Cycles usable_after(Cycles start, double bytes, const BusConfig& bus) {
  return start + static_cast<Cycles>(std::ceil(bytes / bus.bytes_per_cycle - 1e-9)) + bus.latency;
}

// Rule 8: a tile's write-back occupies the port for its requests plus the latency.
Cycles write_back_cycles(const MatrixUnitConfig& cfg) {
  return kRequestsPerTile * static_cast<Cycles>(std::ceil(64.0 / cfg.write_back.bytes_per_cycle)) +
         cfg.write_back.latency;
}

SteppedConvRun run_timing(const MatrixUnitConfig& cfg, const ConvShape& layer) {
  return run_cycle_stepped_conv(cfg, plan_wfold_conv(cfg, layer), ResultRequant{});
}

// The readout's int32 -> int8 rule, written out independently of the vector unit.
std::int8_t requantized(std::int32_t v, std::uint32_t shift, bool relu) {
  std::int64_t r = (std::int64_t(v) + (shift == 0 ? 0 : std::int64_t(1) << (shift - 1))) >> shift;
  if (relu && r < 0) r = 0;
  return static_cast<std::int8_t>(std::clamp<std::int64_t>(r, -128, 127));
}

template <typename T>
SteppedConvRun run_with_data(const RandomCase& c, const ResultRequant& requant, const std::vector<T>& x,
                             const std::vector<T>& k, void* out) {
  return run_cycle_stepped_conv(c.cfg, c.plan, requant, SteppedConvData{x.data(), k.data(), out});
}

bool same_times(const SteppedConvRun& a, const SteppedConvRun& b) {
  for (std::size_t i = 0; i < a.tiles.size(); ++i) {
    const SteppedTileTimes &p = a.tiles[i], &q = b.tiles[i];
    if (p.first_compute != q.first_compute || p.last_compute != q.last_compute || p.write_end != q.write_end ||
        p.results_ready != q.results_ready || p.write_start != q.write_start)
      return false;
  }
  return a.tiles.size() == b.tiles.size() && a.total == b.total && a.compute_cycles == b.compute_cycles;
}

// What a random int8 run covered; each TEST_CASE checks its cases reached every feature.
struct Coverage {
  bool multi_bci = false, kw_split = false, one_window_slot = false, serial_tiles = false, deep_sets = false;
  bool ring_below_nco = false, aco_padding = false, multi_round = false, folded_extras = false;
  bool strided_w = false, strided_h = false, fractional_rate = false, requantized = false;

  void note(const RandomCase& c, const SteppedConvRun& run) {
    const WfoldPlan& p = c.plan;
    multi_bci |= p.bci > 1;
    kw_split |= p.kw_pieces.size() > 1;
    one_window_slot |= run.window_slots == 1;
    serial_tiles |= run.result_sets == 1 && p.tiles > 1;
    deep_sets |= run.result_sets >= 2 && p.tiles > 2;
    ring_below_nco |= p.l2 < p.nco;
    aco_padding |= p.aco != p.layer.co;
    multi_round |= p.co_blocks.size() > 1;
    folded_extras |= p.stride.folded_wo > p.wo;
    strided_w |= p.layer.sw > 1;
    strided_h |= p.layer.sh > 1;
    fractional_rate |= c.cfg.distribution_bus.bytes_per_cycle != std::floor(c.cfg.distribution_bus.bytes_per_cycle);
  }
  bool all() const {
    return multi_bci && kw_split && one_window_slot && serial_tiles && deep_sets && ring_below_nco &&
           aco_padding && multi_round && folded_extras && strided_w && strided_h && fractional_rate && requantized;
  }
};

// One random int8 case: int32 results bit for bit, then (half of the cases) the int8
// results of the requantizing readout; the times equal those of a timing-only run.
void check_int8_case(const RandomCase& c, std::mt19937& rng, Coverage& coverage) {
  const ConvShape& s = c.plan.layer;
  auto x = test::random_int8(std::size_t(s.n) * s.hi * s.wi * s.ci, rng);
  auto k = test::random_int8(std::size_t(s.co) * s.kh * s.kw * s.ci, rng);
  auto want = reference::direct_conv<std::int8_t, std::int32_t>(s, x, k);
  std::vector<std::int32_t> got(want.size(), INT32_MIN);
  SteppedConvRun run = run_with_data(c, ResultRequant{}, x, k, got.data());
  coverage.note(c, run);
  REQUIRE(std::equal(want.begin(), want.end(), got.begin()));
  REQUIRE(same_times(run, run_cycle_stepped_conv(c.cfg, c.plan, ResultRequant{})));
  if (rng() % 2 == 0) return;
  ResultRequant requant{true, draw(rng, 0, 14), rng() % 2 == 0};
  INFO("shift " << requant.shift << " relu " << requant.relu);
  std::vector<std::int8_t> got8(want.size(), 99);
  run_with_data(c, requant, x, k, got8.data());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) bad += got8[i] != requantized(want[i], requant.shift, requant.relu);
  REQUIRE(bad == 0);
  coverage.requantized = true;
}

// float32 in the hardware's order (Pci lanes, then the loop nest) differs from a naive
// sum by rounding; the bound grows with the sum of |products| of each output.
std::size_t float_mismatches(const RandomCase& c, std::mt19937& rng) {
  const ConvShape& s = c.plan.layer;
  auto x = test::random_float(std::size_t(s.n) * s.hi * s.wi * s.ci, rng);
  auto k = test::random_float(std::size_t(s.co) * s.kh * s.kw * s.ci, rng);
  auto want = reference::direct_conv<float, double>(s, x, k);
  std::vector<float> got(want.size(), NAN);
  run_with_data(c, ResultRequant{}, x, k, got.data());
  for (auto& v : x) v = std::fabs(v);
  for (auto& v : k) v = std::fabs(v);
  auto bound = reference::direct_conv<float, double>(s, x, k);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) bad += !(std::fabs(got[i] - want[i]) <= 1e-5 * bound[i] + 1e-30);
  return bad;
}

}  // namespace

TEST_CASE("Stepped reference: int8 results equal a direct convolution, with and without requantize",
          "[stepped]") {
  std::mt19937 rng(12);
  Coverage coverage;
  for (int i = 0; i < 150; ++i) {
    RandomCase c = random_case(rng, 1);
    INFO("case " << i << ": " << c.name);
    check_int8_case(c, rng, coverage);
  }
  CHECK(coverage.all());
}

TEST_CASE("Stepped reference: float32 results equal a direct convolution within rounding", "[stepped]") {
  std::mt19937 rng(34);
  for (int i = 0; i < 40; ++i) {
    RandomCase c = random_case(rng, 4);
    INFO("case " << i << ": " << c.name);
    REQUIRE(float_mismatches(c, rng) == 0);
  }
}

TEST_CASE("Stepped reference: seed000 Embodiment 1 runs its 36 compute cycles and equals the reference",
          "[stepped]") {
  // Ws = 4 (ci = 16 B), Ncu = 4, 3x3, Aco = 64 over 16 slaves: one tile of 64 co x 16 wo.
  MatrixUnitConfig cfg = test::seed_matrix_config();
  cfg.write_back = {64.0, 2};
  cfg.third_buffer_depth = 2;
  RandomCase c{cfg, plan_wfold_conv(cfg, parse_conv_spec("hi=3,wi=18,ci=16,co=64,k=3")), "embodiment 1"};
  REQUIRE(c.plan.tiles == 1);
  std::mt19937 rng(1);
  Coverage unused;
  check_int8_case(c, rng, unused);
  CHECK(run_cycle_stepped_conv(cfg, c.plan, ResultRequant{}).compute_cycles == 36);
}

TEST_CASE("Stepped timing: one 1x1 tile with one result set, rule by rule", "[stepped]") {
  MatrixUnitConfig cfg = timing_config();
  cfg.third_buffer_depth = 1;
  SteppedConvRun run = run_timing(cfg, one_by_one(64, 1));
  REQUIRE(run.tiles.size() == 1);

  // Rule 1: the window (4 rows of 64 B) moves in cycles 0-3 and is usable from 3+1+2 = 6.
  const Cycles window = usable_after(0, kWindowBytes, cfg.broadcast_bus);
  // Rules 3 and 5: weight row j moves in cycle j (usable j+3); compute cycle j issues once
  // the window, row j and the previous compute cycle allow: 6, 7, 8, 9.
  Cycles compute = 0;
  for (Cycles j = 0; j < kNco; ++j) {
    Cycles row = usable_after(0, (j + 1) * kWeightRowBytes, cfg.distribution_bus);
    compute = std::max({j == 0 ? 0 : compute + 1, window, row});
    if (j == 0) CHECK(run.tiles[0].first_compute == compute);
  }
  // Rule 7: results complete from 9+1+4 = 14; rule 8: four 1-cycle requests, 14-17, end 18+2 = 20.
  const Cycles ready = compute + 1 + cfg.mac_latency;
  CHECK(run.tiles[0].last_compute == compute);
  CHECK(run.tiles[0].results_ready == ready);
  CHECK(run.tiles[0].write_start == ready);
  CHECK(run.tiles[0].write_end == ready + write_back_cycles(cfg));
  CHECK(run.total == 20);  // the sum above, spelled out once
  CHECK(run.compute_cycles == kNco);
  CHECK(run.stall_window == window);  // cycles 0-5: the window was the missing piece
  CHECK(run.stall_weights == 0);
  CHECK(run.stall_result_set == 0);
}

TEST_CASE("Stepped timing: with many tiles and a fast bus, D = 2 overlaps write-back with compute",
          "[stepped]") {
  // Bci = 8 segments of Nco = 4 compute cycles per tile (32), write-back 4 + 2 = 6 cycles.
  // The bus keeps up: a 256 B window takes 1 cycle + latency 2 = 3 <= the 4 compute cycles
  // of the segment in the other first-buffer slot. The links keep up: one 64 B row per
  // cycle, the compute rate, and the ring of 8 rows covers their 3-cycle delay. So compute
  // runs back to back from its first cycle and the period is max(32, 6) = 32.
  MatrixUnitConfig cfg = timing_config();
  cfg.broadcast_bus = {256.0, 2};
  const std::uint32_t tiles = 6;
  SteppedConvRun run = run_timing(cfg, one_by_one(512, tiles));
  REQUIRE(run.tiles.size() == tiles);
  REQUIRE(run.result_sets == 2);

  const Cycles per_tile = 8 * kNco;
  const Cycles first = std::max(usable_after(0, kWindowBytes, cfg.broadcast_bus),
                                usable_after(0, kWeightRowBytes, cfg.distribution_bus));  // 3
  for (std::uint32_t i = 0; i < tiles; ++i) {
    INFO("tile " << i);
    const SteppedTileTimes& t = run.tiles[i];
    CHECK(t.first_compute == first + i * per_tile);
    CHECK(t.last_compute == first + (i + 1) * per_tile - 1);
    CHECK(t.write_start == t.last_compute + 1 + cfg.mac_latency);
    CHECK(t.write_end == t.write_start + write_back_cycles(cfg));
    if (i + 1 < tiles) {
      CHECK(run.tiles[i + 1].first_compute < t.write_end);  // the next tile computes meanwhile
      CHECK(run.tiles[i + 1].write_end - t.write_end == std::max(per_tile, write_back_cycles(cfg)));
    }
  }
  CHECK(run.stall_window + run.stall_weights + run.stall_result_set == first);
}

TEST_CASE("Stepped timing: write-back bound tiles, period max(compute, write-back) and the D = 2 round trip",
          "[stepped]") {
  // Bci = 1: 4 compute cycles per tile against a write-back of 4 + 2 = 6.
  MatrixUnitConfig cfg = timing_config();
  cfg.broadcast_bus = {256.0, 2};
  const std::uint32_t tiles = 12;
  const Cycles write_back = write_back_cycles(cfg);

  SECTION("D = 4: a set comes back before the port runs dry, so the port never idles") {
    // Tile i+4 takes tile i's set at its write_end and has results 4-1+1+4 = 8 cycles
    // later, while the port still has tiles i+1 to i+3 (12 cycles of requests) to write.
    // The port takes the next tile as soon as the last request has issued (rule 8). With
    // D = 3 a set's round trip (4 + 4 + 4 + 2 = 14) is longer than three tiles' requests.
    cfg.third_buffer_depth = 4;
    const Cycles requests = write_back - cfg.write_back.latency;
    SteppedConvRun run = run_timing(cfg, one_by_one(64, tiles));
    for (std::uint32_t i = 0; i + 1 < tiles; ++i) {
      INFO("tile " << i);
      CHECK(run.tiles[i + 1].write_start == run.tiles[i].write_end - cfg.write_back.latency);
      CHECK(run.tiles[i + 1].write_end - run.tiles[i].write_end == std::max(kNco, requests));
    }
    CHECK(run.stall_result_set == 0);  // four sets cover the 14-cycle round trip
  }
  SECTION("D = 2: each set goes round compute, MAC pipeline and write-back for two tiles") {
    // Tile i+2 starts at tile i's write_end (window and rows are already there) and ends
    // Nco + mac_latency + write-back later: 4 + 4 + 6 = 14 cycles per two tiles.
    SteppedConvRun run = run_timing(cfg, one_by_one(64, tiles));
    for (std::uint32_t i = 0; i + 2 < tiles; ++i) {
      INFO("tile " << i);
      CHECK(run.tiles[i + 2].first_compute == run.tiles[i].write_end);
      CHECK(run.tiles[i + 2].write_end - run.tiles[i].write_end == kNco + cfg.mac_latency + write_back);
    }
  }
}

TEST_CASE("Stepped timing: one first-buffer slot serializes window fill and compute", "[stepped]") {
  // ci = 256: Bci = 4 windows of 4 rows; at 128 B/cycle a window takes F = 2 cycles.
  MatrixUnitConfig cfg = timing_config();
  cfg.broadcast_bus = {128.0, 2};
  const Cycles bci = 4, fill = 2, lb = cfg.broadcast_bus.latency;

  SECTION("2 * data_rows > L1: the next window starts only after the segment's last compute") {
    cfg.first_buffer_rows = 7;
    SteppedConvRun run = run_timing(cfg, one_by_one(256, 1));
    REQUIRE(run.window_slots == 1);
    CHECK(run.tiles[0].last_compute == bci * (fill + lb + kNco) - 1);  // 31
    CHECK(run.stall_window == run.tiles[0].last_compute + 1 - run.compute_cycles);
  }
  SECTION("two slots: the next window fills during compute (F + latency = 4 <= Nco)") {
    SteppedConvRun run = run_timing(cfg, one_by_one(256, 1));
    REQUIRE(run.window_slots == 2);
    CHECK(run.tiles[0].last_compute == fill + lb + bci * kNco - 1);  // 19
    CHECK(run.stall_window == fill + lb);
  }
}

TEST_CASE("Stepped timing: a distribution link slower than Pci bytes per cycle bounds compute", "[stepped]") {
  // 24 B/cycle moves a 64 B row every 8/3 cycles; the budget carries across rows, so row k
  // has moved by cycle ceil((k+1) * 64 / 24) - 1 and each compute cycle waits for its row.
  MatrixUnitConfig cfg = timing_config();
  cfg.broadcast_bus = {256.0, 2};
  cfg.distribution_bus = {24.0, 2};
  const std::uint32_t tiles = 3;
  const Cycles rows_per_tile = 8 * kNco;
  SteppedConvRun run = run_timing(cfg, one_by_one(512, tiles));
  for (std::uint32_t i = 0; i < tiles; ++i) {
    INFO("tile " << i);
    CHECK(run.tiles[i].first_compute == usable_after(0, (i * rows_per_tile + 1) * kWeightRowBytes, cfg.distribution_bus));
    CHECK(run.tiles[i].last_compute == usable_after(0, (i + 1) * rows_per_tile * kWeightRowBytes, cfg.distribution_bus));
  }
  CHECK(run.tiles[2].last_compute == 258);  // ceil(96 * 64 / 24) + 2
  CHECK(run.total == run.tiles[2].last_compute + 1 + cfg.mac_latency + write_back_cycles(cfg));
  CHECK(run.stall_window == usable_after(0, kWindowBytes, cfg.broadcast_bus));
  CHECK(run.stall_weights == run.tiles[2].last_compute + 1 - run.compute_cycles - run.stall_window);
}

TEST_CASE("Stepped timing: a third buffer holding one result set runs tiles one after another", "[stepped]") {
  MatrixUnitConfig cfg = timing_config();
  cfg.broadcast_bus = {256.0, 2};
  const ConvShape layer = one_by_one(64, 6);
  const WfoldPlan plan = plan_wfold_conv(cfg, layer);
  SteppedConvRun ample = run_timing(cfg, layer);
  cfg.third_buffer_bytes = plan.third_buffer_bytes_needed;  // depth 2, room for one set
  SteppedConvRun capped = run_timing(cfg, layer);
  cfg.third_buffer_bytes = 4096;
  cfg.third_buffer_depth = 1;
  SteppedConvRun serial = run_timing(cfg, layer);

  CHECK(ample.result_sets == 2);
  CHECK(capped.result_sets == 1);
  CHECK(same_times(capped, serial));
  CHECK(capped.total > ample.total);
  // Rule 9: nothing of tile i+1 moves before tile i's write-back ends, so every tile
  // repeats tile 0 shifted by tile 0's whole duration.
  const SteppedTileTimes& t0 = capped.tiles[0];
  for (std::uint32_t i = 1; i < capped.tiles.size(); ++i) {
    INFO("tile " << i);
    const Cycles shift = i * t0.write_end;
    CHECK(capped.tiles[i].first_compute == t0.first_compute + shift);
    CHECK(capped.tiles[i].write_end == t0.write_end + shift);
    CHECK(capped.tiles[i].first_compute >= capped.tiles[i - 1].write_end);
  }
}

TEST_CASE("Stepped timing: a tile's write requests follow the Pco/Wso scheme of seed000 §3.7", "[stepped]") {
  // One tile of 4 wo. Each request takes ceil(bytes / 5.5) cycles; the write-back ends 2 later.
  MatrixUnitConfig cfg = timing_config();
  cfg.write_back = {5.5, 2};
  auto write_back = [&](const std::string& spec, const ResultRequant& requant) {
    const WfoldPlan plan = plan_wfold_conv(cfg, parse_conv_spec(spec));
    REQUIRE(plan.pco.bytes == 16);  // Pco = 16 B (Wso = 4) for 16 B and for 72 B of int32 co
    SteppedConvRun run = run_cycle_stepped_conv(cfg, plan, requant);
    REQUIRE(run.tiles.size() == 1);
    return run.tiles[0].write_end - run.tiles[0].write_start;
  };
  const ResultRequant int8{true, 4, false};
  // co = 4 fits one Pco: the 4 positions are contiguous, one request of 4 x 16 B (¶152).
  CHECK(write_back("hi=1,wi=4,ci=64,co=4,k=1", {}) == 12 + 2);
  CHECK(write_back("hi=1,wi=4,ci=64,co=4,k=1", int8) == 3 + 2);  // 4 x 4 B
  // co = 18: per position 4 requests of one Pco (16 B) and one of the remainder, 2 co (¶153-¶155).
  CHECK(write_back("hi=1,wi=4,ci=64,co=18,k=1", {}) == 4 * (4 * 3 + 2) + 2);
  // Requantized, 18 B per position: one Pco block of 16 co and 2 B of remainder.
  CHECK(write_back("hi=1,wi=4,ci=64,co=18,k=1", int8) == 4 * (3 + 1) + 2);
}

TEST_CASE("Stepped timing: invariants over random layers and configs", "[stepped]") {
  std::mt19937 rng(56);
  for (int i = 0; i < 150; ++i) {
    RandomCase c = random_case(rng, rng() % 2 ? 1 : 4);
    INFO("case " << i << ": " << c.name);
    SteppedConvRun run = run_cycle_stepped_conv(c.cfg, c.plan, ResultRequant{});
    const WfoldPlan& p = c.plan;
    REQUIRE(run.tiles.size() == p.tiles);

    // Every tile runs (kw steps of all pieces) x Nco x kh x Bci compute cycles.
    Cycles per_row = 0;  // one output row of tiles, all rounds
    for (const CoBlock& round : p.co_blocks)
      for (const KwPiece& piece : p.kw_pieces) per_row += Cycles(piece.length) * round.nco * p.nkh * p.bci * p.wo_tiles;
    CHECK(run.compute_cycles == per_row * p.ho * p.layer.n);
    CHECK(run.total >= run.compute_cycles);
    CHECK(run.total == run.tiles.back().write_end);
    CHECK(run.compute_cycles + run.stall_window + run.stall_weights + run.stall_result_set ==
          run.tiles.back().last_compute + 1);
    for (std::size_t t = 0; t < run.tiles.size(); ++t) {
      const SteppedTileTimes& now = run.tiles[t];
      CHECK(now.first_compute <= now.last_compute);
      CHECK(now.results_ready == now.last_compute + 1 + c.cfg.mac_latency);
      CHECK(now.write_start >= now.results_ready);
      CHECK(now.write_end > now.write_start + c.cfg.write_back.latency);
      if (t == 0) continue;
      const SteppedTileTimes& before = run.tiles[t - 1];
      CHECK(now.first_compute > before.last_compute);
      CHECK(now.write_start + c.cfg.write_back.latency >= before.write_end);  // the port is free
      CHECK(now.write_end > before.write_end);
      if (run.result_sets == 1) CHECK(now.first_compute >= before.write_end);
    }
  }
}

TEST_CASE("Stepped reference: refuses a write-back rate of zero and half-given tensors", "[stepped]") {
  MatrixUnitConfig cfg = timing_config();
  const ConvShape layer = one_by_one(64, 1);
  const WfoldPlan plan = plan_wfold_conv(cfg, layer);
  std::vector<std::int8_t> x(64 * 4), k(16 * 64);
  CHECK_THROWS_AS(run_cycle_stepped_conv(cfg, plan, ResultRequant{}, SteppedConvData{x.data(), k.data(), nullptr}),
                  std::invalid_argument);
  cfg.write_back.bytes_per_cycle = 0;
  CHECK_THROWS_AS(run_cycle_stepped_conv(cfg, plan, ResultRequant{}), InputError);
}

TEST_CASE("Stepped reference: speed on 56x56x64 -> 64 3x3 (printed, not asserted)", "[stepped]") {
  MatrixUnitConfig cfg = test::seed_matrix_config();
  cfg.write_back = {64.0, 2};
  cfg.third_buffer_depth = 2;
  const ConvShape layer = parse_conv_spec("hi=56,wi=56,ci=64,co=64,k=3,pad=1");
  const WfoldPlan plan = plan_wfold_conv(cfg, layer);
  std::mt19937 rng(7);
  auto x = test::random_int8(std::size_t(layer.hi) * layer.wi * layer.ci, rng);
  auto k = test::random_int8(std::size_t(layer.co) * layer.kh * layer.kw * layer.ci, rng);
  std::vector<std::int32_t> out(std::size_t(plan.ho) * plan.wo * layer.co);

  using Clock = std::chrono::steady_clock;
  const int timing_runs = 5;  // one timing-only run is too short to time alone
  auto t0 = Clock::now();
  SteppedConvRun timing;
  for (int i = 0; i < timing_runs; ++i) timing = run_cycle_stepped_conv(cfg, plan, ResultRequant{});
  auto t1 = Clock::now();
  SteppedConvRun data = run_cycle_stepped_conv(cfg, plan, ResultRequant{}, {x.data(), k.data(), out.data()});
  auto t2 = Clock::now();
  const int plans = 20;  // the fast model: the whole plan, its tile pipeline included
  auto t3 = Clock::now();
  for (int i = 0; i < plans; ++i) CHECK(plan_wfold_conv(cfg, layer).cycles.total == timing.total);
  const double plan_s = std::chrono::duration<double>(Clock::now() - t3).count() / plans;
  const double timing_s = std::chrono::duration<double>(t1 - t0).count() / timing_runs;
  const double data_s = std::chrono::duration<double>(t2 - t1).count();
  const double issued = double(timing.compute_cycles) * plan.ns * plan.ncu * plan.lanes;
  WARN("stepped 56x56x64->64 3x3: " << timing.total << " cycles; timing only " << timing_s << " s = "
       << timing.total / timing_s << " cycles/s; with data " << data_s << " s = " << data.total / data_s
       << " cycles/s, " << issued / data_s << " issued MACs/s, " << layer.useful_macs() / data_s
       << " useful MACs/s; the fast plan " << plan_s << " s (" << timing_s / plan_s << "x faster than stepping)");
  CHECK(same_times(timing, data));
  CHECK(out == reference::direct_conv<std::int8_t, std::int32_t>(layer, x, k));
}
