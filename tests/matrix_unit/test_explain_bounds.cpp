// `npusim explain` is bounded (issue 28): the Wfold plan's traffic and busy cycles are closed
// forms over kinds of co rounds and wo tiles, checked here against a walk over every first-buffer
// window of every tile; the tile pipeline is followed only up to kExplainPipelineSteps, and past
// that explain prints the busiest resource as a lower bound of the total, which must hold.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "matrix_unit/RandomTimingCases.h"
#include "models/matrix_unit/Explain.h"
#include "models/matrix_unit/TilePipeline.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;
using namespace npusim::test;

namespace {

struct Traffic {
  Cycles compute = 0, input_fill = 0, weight_fill = 0, write_back = 0;
  std::uint64_t data_rows = 0, read_requests = 0, weight_rows = 0, write_requests = 0;
};

Cycles on_bus(std::uint64_t bytes, const BusConfig& bus) {
  return static_cast<Cycles>(std::ceil(double(bytes) / bus.bytes_per_cycle));
}

// One first-buffer window: kw piece `k`, Pci block `b` of a tile of co round `round`.
void add_window(const WfoldPlan& p, const MatrixUnitConfig& cfg, const CoBlock& round, const KwPiece& k,
                std::uint32_t b, Traffic& t) {
  t.compute += Cycles(k.length) * round.nco;
  t.input_fill += on_bus(std::uint64_t(k.data_rows) * p.m_bytes, cfg.broadcast_bus);
  t.weight_fill += Cycles(k.length) * on_bus(std::uint64_t(round.nco) * p.pci.bytes, cfg.distribution_bus);
  t.data_rows += k.data_rows;
  // A seed request wider than the master's NRAM request width takes several NRAM requests.
  const std::uint64_t ci_bytes = std::uint64_t(p.stride.folded_ci) * p.element_bytes;
  const auto nram = [&](std::uint64_t bytes) {
    return (bytes + cfg.nram_read.request_bytes - 1) / cfg.nram_read.request_bytes;
  };
  if (p.reads.mode == DataRowRead::Contiguous) t.read_requests += k.data_rows * nram(p.ws * ci_bytes);
  if (p.reads.mode == DataRowRead::Strided) t.read_requests += std::uint64_t(k.data_rows) * p.ws * nram(p.pci.bytes);
  if (p.reads.mode == DataRowRead::Relay && b == 0) t.read_requests += std::uint64_t(k.data_rows) * p.ws * nram(ci_bytes);
  t.weight_rows += std::uint64_t(k.length) * round.count;
}

// Every tile in work order, every window of it: the figures the closed forms must equal.
Traffic traffic_window_by_window(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  Traffic t;
  for (std::uint32_t n = 0; n < p.layer.n; ++n)
    for (const CoBlock& round : p.co_blocks)
      for (std::uint32_t row = 0; row < p.ho; ++row)
        for (std::uint32_t first_wo = 0; first_wo < p.wo; first_wo += p.wo_per_tile) {
          for (const KwPiece& k : p.kw_pieces)
            for (std::uint32_t kh = 0; kh < p.nkh; ++kh)
              for (std::uint32_t b = 0; b < p.bci; ++b) add_window(p, cfg, round, k, b, t);
          const std::uint32_t wo_valid = std::min(p.wo_per_tile, p.wo - first_wo);
          const TileWrites w = tile_writes(p, wo_valid, round.count, cfg.write_back.bytes_per_cycle);
          t.write_back += w.cycles;
          t.write_requests += w.requests;
        }
  return t;
}

HardwareConfig default_chip() { return default_hardware_config(); }

}  // namespace

TEST_CASE("explain bounds: the closed-form traffic equals a walk over every window of every tile",
          "[matrix_unit][explain]") {
  std::mt19937 rng(2028);
  bool several_round_kinds = false, ragged_tiles = false, relay = false, strided = false;
  for (int i = 0; i < 300; ++i) {
    RandomCase c = random_case(rng, rng() % 2 ? 1 : 4);
    c.cfg.relay_enabled = i % 2 == 1;  // random_case leaves the relay off
    c.cfg.relay_bytes = 1u << 16;
    INFO("case " << i << ": " << c.name << " relay=" << c.cfg.relay_enabled);
    const WfoldPlan p = map_wfold_conv(c.cfg, c.plan.layer);
    const Traffic t = traffic_window_by_window(p, c.cfg);
    CHECK(p.cycles.compute == t.compute);
    CHECK(p.cycles.input_fill == t.input_fill);
    CHECK(p.cycles.weight_fill == t.weight_fill);
    CHECK(p.cycles.write_back == t.write_back);
    CHECK(p.data_rows == t.data_rows);
    CHECK(p.read_requests == t.read_requests);
    CHECK(p.weight_rows == t.weight_rows);
    CHECK(p.write_requests == t.write_requests);
    // Every compute cycle issues ns x Ncu x lanes element MACs, padding included.
    CHECK(p.macs.issued == t.compute * p.ns * p.ncu * p.lanes);
    several_round_kinds |= co_round_kinds(p).size() > 1 && co_round_kinds(p).front().rounds > 1;
    ragged_tiles |= wo_tile_kinds(p).size() > 1;
    relay |= p.reads.mode == DataRowRead::Relay;
    strided |= p.reads.mode == DataRowRead::Strided;
  }
  CHECK(several_round_kinds);
  CHECK(ragged_tiles);
  CHECK(relay);
  CHECK(strided);
}

TEST_CASE("explain bounds: the busiest resource bounds the pipeline's total from below",
          "[matrix_unit][explain]") {
  std::mt19937 rng(2029);
  for (int i = 0; i < 200; ++i) {
    const RandomCase c = random_case(rng, rng() % 2 ? 1 : 4);
    INFO("case " << i << ": " << c.name);
    const WfoldPlan mapped = map_wfold_conv(c.cfg, c.plan.layer);
    const WfoldPlan planned = plan_wfold_conv(c.cfg, c.plan.layer);
    CHECK_FALSE(mapped.pipeline_followed);
    CHECK(planned.pipeline_followed);
    CHECK(mapped.cycles.busiest == planned.cycles.busiest);
    CHECK(planned.cycles.total >= planned.cycles.busiest);
    CHECK(mapped.mac_utilization >= planned.mac_utilization);
    CHECK(mapped.broadcast_utilization >= planned.broadcast_utilization);
    CHECK(mapped.distribution_utilization >= planned.distribution_utilization);
    // The step count explain compares with its limit covers at least one step per window.
    CHECK(pipeline_steps(planned, c.cfg) >= double(planned.tiles) * planned.nkh * planned.bci);
  }
}

TEST_CASE("explain bounds: a layer past the pipeline limit gets the closed-form figures at once",
          "[matrix_unit][explain]") {
  const HardwareConfig hw = default_chip();
  const MatrixUnitConfig& mx = hw.core.block<MatrixUnitConfig>(MatrixUnitConfig::kSection);
  const ConvShape huge = parse_conv_spec("hi=65536,wi=65536,ci=64,co=64,k=3");
  const WfoldPlan mapped = map_wfold_conv(mx, huge, result_path_requantizes(mx, huge));
  REQUIRE(pipeline_steps(mapped, mx) > double(kExplainPipelineSteps));
  const std::string text = explain_conv_layer(hw, huge);
  INFO(text);
  using Catch::Contains;
  CHECK_THAT(text, Contains("pipeline   not followed: its " + std::to_string(mapped.tiles) + " tiles"));
  CHECK_THAT(text, Contains("cycles     at least " + std::to_string(mapped.cycles.busiest)));
  CHECK_THAT(text, Contains("useful " + std::to_string(huge.useful_macs())));
  // A layer under the limit is followed tile by tile, as before.
  const ConvShape small = parse_conv_spec("hi=56,wi=56,ci=64,co=64,k=3,pad=1");
  const WfoldPlan planned = plan_wfold_conv(mx, small, result_path_requantizes(mx, small));
  CHECK_THAT(explain_conv_layer(hw, small), Contains("cycles     " + std::to_string(planned.cycles.total) + " total"));
}

TEST_CASE("explain bounds: layers whose plan would not fit are refused by name", "[matrix_unit][explain]") {
  const HardwareConfig hw = default_chip();
  using Catch::Contains;
  CHECK_THROWS_WITH(explain_conv_layer(hw, parse_conv_spec("hi=7,wi=7,ci=64,co=1000000000,k=1")),
                    Contains("co rounds (co / co_block); the matrix unit's plan holds at most 1048576"));
  CHECK_THROWS_WITH(
      explain_conv_layer(hw, parse_conv_spec("hi=1000000000,wi=1000000000,ci=1000000000,co=1000000000,k=3")),
      Contains("MACs; explain and the matrix unit count at most 2^56"));
  CHECK_THROWS_WITH(explain_conv_layer(hw, parse_conv_spec("hi=4,wi=8,ci=1000000000,co=1,k=1,stride=5")),
                    Contains("bytes per folded position"));
  // 2^52 useful MACs, but co 1 is aligned to 16 slaves and ci 1 to a Pci of 8: 2^59 issued.
  CHECK_THROWS_WITH(explain_conv_layer(hw, parse_conv_spec("hi=67108864,wi=67108864,ci=1,co=1,k=1")),
                    Contains("MACs with its padding; the matrix unit counts at most 2^58"));
}
