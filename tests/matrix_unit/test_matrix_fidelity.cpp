// Issue 12: the fast matrix-unit model (TilePipeline + WfoldDatapath) against the
// cycle-stepped reference (models/matrix_unit/stepped), over randomized conv layers and
// matrix configs. Tensors must be identical; per-layer cycles within the bounds stated in
// docs/fidelity.md. The error distribution is printed so the doc's table can be refreshed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <vector>

#include "matrix_unit/SeedMatrixConfig.h"
#include "models/matrix_unit/WfoldDatapath.h"
#include "models/matrix_unit/WfoldMapping.h"
#include "models/matrix_unit/stepped/CycleSteppedMatrixUnit.h"
#include "models/vector_unit/VectorKernels.h"
#include "sim/common/InputError.h"

using namespace npusim;

namespace {

// docs/fidelity.md states these bounds (the issue asked for <= 2 % typical, <= 5 % worst); the
// measured error is far below them, so they catch a model drifting apart early.
constexpr double kMaxError = 0.01;      // no layer worse than this
constexpr double kMedianError = 0.001;  // a typical layer
constexpr std::uint64_t kIssuedMacBudget = 4'000'000;  // keeps 200 functional layers to seconds

std::uint32_t log_uniform(std::mt19937& rng, std::uint32_t lo, std::uint32_t hi) {
  std::uniform_real_distribution<double> u(std::log(double(lo)), std::log(double(hi) + 1));
  return std::min(hi, std::uint32_t(std::exp(u(rng))));
}

// A random matrix unit: slaves, CUs, M, buffers, bus widths and third-buffer depth.
MatrixUnitConfig random_config(std::mt19937& rng) {
  MatrixUnitConfig c = test::seed_matrix_config();
  const std::uint32_t slaves[] = {1, 2, 4, 8, 16, 32}, cus[] = {1, 2, 4, 8}, rows[] = {16, 32, 64, 128};
  c.slaves = slaves[rng() % 6];
  c.cus_per_slave = cus[rng() % 4];
  c.row_bytes = rows[rng() % 4];
  c.pci_candidates.clear();
  for (std::uint32_t p = c.row_bytes; p >= 8 && c.pci_candidates.size() < 4; p /= 2) c.pci_candidates.push_back(p);
  c.first_buffer_rows = c.cus_per_slave + std::uint32_t(rng() % 12);
  c.second_buffer_rows = 1 + std::uint32_t(rng() % 16);
  c.co_block = std::uint32_t(c.slaves * (1 + rng() % 8));
  const double widths[] = {8, 12, 16, 24, 32, 48, 64, 128};  // 12, 24 and 48 make fractional row times
  c.broadcast_bus.bytes_per_cycle = widths[rng() % 8];
  c.distribution_bus.bytes_per_cycle = widths[rng() % 8];
  c.write_back.bytes_per_cycle = widths[rng() % 8];
  c.broadcast_bus.latency = rng() % 4;
  c.distribution_bus.latency = rng() % 4;
  c.write_back.latency = rng() % 4;
  c.mac_latency = rng() % 6;
  c.third_buffer_depth = 1 + std::uint32_t(rng() % 4);
  c.third_buffer_bytes = 1u << 16;  // draw_case shrinks it now and then
  c.relay_enabled = rng() % 2;
  c.relay_bytes = 1024;
  // The master's NRAM requests (rule 1a): narrow to wide, free to slow, and the relay's registers.
  c.nram_read.request_bytes = 8u << (rng() % 6);
  c.nram_read.request_cycles = rng() % 4;
  c.relay.write_cycles = rng() % 3;
  c.relay.read_cycles = 1 + rng() % 3;
  const double readout[] = {2, 8, 24, 64};  // per slave; 2 and 8 often hold the write-back port
  c.readout_bytes_per_cycle = readout[rng() % 4];
  return c;
}

// A random conv layer within the ranges, shrunk until its issued MACs fit the budget.
ConvShape random_layer(std::mt19937& rng) {
  for (;;) {
    ConvShape s;
    s.n = 1 + rng() % 2;
    s.kh = rng() % 3 == 0 ? 1 : 1 + rng() % 11;
    s.kw = rng() % 3 == 0 ? s.kh : 1 + rng() % 11;
    s.sh = 1 + rng() % 4;
    s.sw = 1 + rng() % 4;
    s.ci = log_uniform(rng, 1, 512);
    s.co = log_uniform(rng, 1, 512);
    s.pad_top = rng() % 3, s.pad_bottom = rng() % 3, s.pad_left = rng() % 3, s.pad_right = rng() % 3;
    s.hi = std::max<std::uint32_t>(1, s.kh + rng() % 20);
    s.wi = std::max<std::uint32_t>(1, s.kw + rng() % 40);
    s.element_bytes = rng() % 8 == 0 ? 4 : 1;  // float32 now and then
    const std::uint64_t macs = std::uint64_t(s.n) * s.ho() * s.wo() * s.co * s.ci * s.kh * s.kw;
    if (macs <= kIssuedMacBudget) return s;
  }
}

struct Measured {
  double error;
  std::string kind;
};

std::string kind_of(const ConvShape& s) {
  if (s.kh == 1 && s.kw == 1) return "1x1";
  if (std::max(s.kh, s.kw) <= 3) return "3x3 and smaller";
  return "larger kernels";
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

// One drawn case: a config and layer the plan can map, within the MAC budget.
struct FidelityCase {
  MatrixUnitConfig cfg;
  ConvShape layer;
  WfoldPlan plan;
  ResultRequant requant;
  std::uint32_t data_seed = 0;
};

FidelityCase draw_case(std::mt19937& rng) {
  for (;;) {
    FidelityCase c{random_config(rng), random_layer(rng), {}, {}, std::uint32_t(rng())};
    c.requant = {c.layer.element_bytes == 1 && rng() % 2, 6 + std::uint32_t(rng() % 8), bool(rng() % 2)};
    try {
      c.plan = plan_wfold_conv(c.cfg, c.layer, c.requant.enabled);
      if (c.cfg.third_buffer_depth > 1 && rng() % 4 == 0) {
        // A third buffer holding fewer result sets than the configured depth caps D (rule 6).
        c.cfg.third_buffer_bytes =
            c.plan.third_buffer_bytes_needed * (1 + std::uint32_t(rng() % (c.cfg.third_buffer_depth - 1)));
        c.plan = plan_wfold_conv(c.cfg, c.layer, c.requant.enabled);
      }
    } catch (const InputError&) {
      continue;  // this config cannot map this layer (third buffer too small)
    }
    if (c.plan.macs.issued <= kIssuedMacBudget) return c;  // else padding made it too costly to step
  }
}

// Both models' output tensors for the case's random data: identical bit for bit (float32
// too: both sum Pci lanes first, then the loop nest, in the hardware's order).
template <typename In, typename Out>
bool same_tensors(const FidelityCase& c, std::vector<In> (*random)(std::size_t, std::mt19937&)) {
  std::mt19937 rng(c.data_seed);
  const ConvShape& l = c.layer;
  const std::vector<In> x = random(std::size_t(l.n) * l.hi * l.wi * l.ci, rng);
  const std::vector<In> w = random(std::size_t(l.co) * l.kh * l.kw * l.ci, rng);
  const std::size_t outputs = std::size_t(l.n) * c.plan.ho * c.plan.wo * l.co;
  std::vector<Out> fast(outputs), stepped(outputs);
  run_wfold_conv(c.plan, l, x.data(), w.data(), fast.data());
  run_cycle_stepped_conv(c.cfg, c.plan, ResultRequant{}, {x.data(), w.data(), stepped.data()});
  if (std::memcmp(fast.data(), stepped.data(), outputs * sizeof(Out)) != 0) return false;
  if (!c.requant.enabled) return true;
  std::vector<std::int8_t> fast8(outputs), stepped8(outputs);
  vector_requant(reinterpret_cast<const std::uint8_t*>(fast.data()), reinterpret_cast<std::uint8_t*>(fast8.data()),
                 outputs, c.requant.shift, c.requant.relu);
  run_cycle_stepped_conv(c.cfg, c.plan, c.requant, {x.data(), w.data(), stepped8.data()});
  return fast8 == stepped8;
}

bool same_tensors(const FidelityCase& c) {
  return c.layer.element_bytes == 4 ? same_tensors<float, float>(c, test::random_float)
                                    : same_tensors<std::int8_t, std::int32_t>(c, test::random_int8);
}

std::string describe(const FidelityCase& c) {
  const MatrixUnitConfig& m = c.cfg;
  std::ostringstream o;
  o << c.layer.to_string() << (c.requant.enabled ? " requantized" : "") << "; slaves " << m.slaves << " cus "
    << m.cus_per_slave << " M " << m.row_bytes << " L1 " << m.first_buffer_rows << " L2 " << m.second_buffer_rows
    << " co_block " << m.co_block << " depth " << m.third_buffer_depth << " mac_latency " << m.mac_latency
    << "; broadcast " << m.broadcast_bus.bytes_per_cycle << "/" << m.broadcast_bus.latency << " distribution "
    << m.distribution_bus.bytes_per_cycle << "/" << m.distribution_bus.latency << " write-back "
    << m.write_back.bytes_per_cycle << "/" << m.write_back.latency << "; NRAM requests " << m.nram_read.request_bytes
    << " B/" << m.nram_read.request_cycles << " cycles, relay " << (m.relay_enabled ? "on" : "off") << " write "
    << m.relay.write_cycles << " read " << m.relay.read_cycles << "; reads " << data_row_read_name(c.plan.reads.mode);
  return o.str();
}

}  // namespace

TEST_CASE("fidelity: the fast model against the cycle-stepped reference on 200 random conv layers",
          "[matrix_unit][stepped][fidelity]") {
  std::mt19937 rng(20261124);
  std::vector<Measured> errors;
  std::size_t compared_tensors = 0, same_tiles = 0, all_tiles = 0, same_stalls = 0;
  std::size_t floats = 0, requantized = 0, capped = 0, serial = 0;  // what the draws covered
  std::size_t read_bound = 0, relays = 0;  // strided or relay reads with window stalls; relay layers
  const int layers = std::getenv("FIDELITY_LAYERS") ? std::atoi(std::getenv("FIDELITY_LAYERS")) : 200;
  for (int i = 0; i < layers; ++i) {
    const FidelityCase c = draw_case(rng);
    const MatrixUnitConfig& cfg = c.cfg;
    const ConvShape& layer = c.layer;
    const WfoldPlan& plan = c.plan;
    INFO("layer " << i << ": " << describe(c));
    REQUIRE(same_tensors(c));
    ++compared_tensors;
    floats += layer.element_bytes == 4;
    requantized += c.requant.enabled;
    capped += plan.pipeline.result_sets < cfg.third_buffer_depth;
    serial += plan.pipeline.result_sets == 1;
    const SteppedConvRun stepped = run_cycle_stepped_conv(cfg, plan, c.requant);

    REQUIRE(stepped.tiles.size() == plan.pipeline.tiles.size());
    // The reference's read port issued the NRAM requests the mapping counts (rule 1a).
    CHECK(stepped.read_requests == plan.read_requests);
    read_bound += plan.pipeline.stalls.window > 0 && plan.reads.mode != DataRowRead::Contiguous;
    relays += plan.reads.mode == DataRowRead::Relay;
    for (std::size_t t = 0; t < stepped.tiles.size(); ++t)
      same_tiles += stepped.tiles[t].first_compute == plan.pipeline.tiles[t].first_compute &&
                    stepped.tiles[t].write_end == plan.pipeline.tiles[t].write_end;
    all_tiles += stepped.tiles.size();
    // Idle CU cycles before the last compute cycle, and by cause (rule 5).
    const PipelineStalls& fs = plan.pipeline.stalls;
    const Cycles fast_idle = fs.window + fs.weights + fs.result_set;
    const Cycles stepped_idle = stepped.stall_window + stepped.stall_weights + stepped.stall_result_set;
    same_stalls += fast_idle == stepped_idle && fs.window == stepped.stall_window &&
                   fs.weights == stepped.stall_weights && fs.result_set == stepped.stall_result_set;
    const double error = std::fabs(double(plan.cycles.total) - double(stepped.total)) / double(stepped.total);
    INFO("fast " << plan.cycles.total << " cycles, stepped " << stepped.total);
    CHECK(error <= kMaxError);
    errors.push_back({error, kind_of(layer)});
  }
  std::vector<double> all;
  std::map<std::string, std::vector<double>> by_kind;
  for (const Measured& m : errors) {
    all.push_back(m.error);
    by_kind[m.kind].push_back(m.error);
  }
  std::printf("fidelity: %zu layers, tensors identical on all; per-layer cycle error |fast - stepped| / stepped:\n",
              compared_tensors);
  std::printf("  %-16s %6s %8s %8s %8s\n", "kind", "layers", "median", "p95", "max");
  auto row = [](const std::string& name, const std::vector<double>& v) {
    std::printf("  %-16s %6zu %7.3f%% %7.3f%% %7.3f%%\n", name.c_str(), v.size(), 100 * percentile(v, 0.5),
                100 * percentile(v, 0.95), 100 * percentile(v, 1.0));
  };
  for (const auto& [kind, v] : by_kind) row(kind, v);
  row("all", all);
  std::printf("  tiles with the same first compute cycle and write-back end: %zu of %zu\n", same_tiles, all_tiles);
  std::printf("  layers with the same idle CU cycles by cause: %zu of %zu\n", same_stalls, errors.size());
  CHECK(percentile(all, 0.5) <= kMedianError);
  // The models agree tile by tile and on why the CU arrays waited, not only in total.
  CHECK(double(same_tiles) >= 0.99 * double(all_tiles));
  CHECK(double(same_stalls) >= 0.99 * double(errors.size()));
  CHECK(compared_tensors == std::size_t(layers));
  std::printf("  float32 %zu, requantized %zu, third buffer capping the depth %zu, serial tiles %zu\n", floats,
              requantized, capped, serial);
  std::printf("  relay reads %zu, strided or relay reads with window stalls %zu\n", relays, read_bound);
  if (layers >= 200) {
    CHECK(floats >= 10);
    CHECK(requantized >= 50);
    CHECK(capped >= 10);
    CHECK(serial >= 20);
    CHECK(relays >= 10);
    CHECK(read_bound >= 10);
  }
}

// Not run by default: prints one case's tiles under both models, to see where they part.
// FIDELITY_CASE=17 build/tests/npusim_tests "[.fidelity-tiles]"
TEST_CASE("fidelity: per-tile times of one case under both models", "[.fidelity-tiles]") {
  const char* which = std::getenv("FIDELITY_CASE");
  const int wanted = which ? std::atoi(which) : 0;
  std::mt19937 rng(20261124);
  FidelityCase c = draw_case(rng);
  for (int i = 0; i < wanted; ++i) c = draw_case(rng);
  const SteppedConvRun stepped = run_cycle_stepped_conv(c.cfg, c.plan, c.requant);
  std::printf("case %d: %s\nfast %llu, stepped %llu; window slots %u/%u, result sets %u/%u\n", wanted,
              describe(c).c_str(), (unsigned long long)c.plan.cycles.total, (unsigned long long)stepped.total,
              c.plan.pipeline.window_slots, stepped.window_slots, c.plan.pipeline.result_sets, stepped.result_sets);
  std::printf("tile  fill f/s   first f/s   end f/s   wstart f/s   wend f/s\n");
  for (std::size_t t = 0; t < stepped.tiles.size() && t < 40; ++t) {
    const TileTimes& f = c.plan.pipeline.tiles[t];
    const SteppedTileTimes& s = stepped.tiles[t];
    std::printf("%4zu %5llu/%-5llu %5llu/%-5llu %5llu/%-5llu %5llu/%-5llu %5llu/%-5llu\n", t,
                (unsigned long long)f.fill_start, (unsigned long long)s.fill_start,
                (unsigned long long)f.first_compute, (unsigned long long)s.first_compute,
                (unsigned long long)f.compute_end, (unsigned long long)s.last_compute + 1,
                (unsigned long long)f.write_start, (unsigned long long)s.write_start,
                (unsigned long long)f.write_end, (unsigned long long)s.write_end);
  }
  CHECK(stepped.tiles.size() == c.plan.pipeline.tiles.size());
}
