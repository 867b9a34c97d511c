// Direction checks: a larger memory never costs less per byte, and a sparser
// layer never costs the sparse cluster more MAC energy.
#include <catch2/catch.hpp>

#include <random>

#include "e2e/NpusimProcess.h"
#include "energy/EnergyRuns.h"
#include "sim/energy/EnergyClasses.h"
#include "sim/energy/EnergyTable.h"

using namespace energy_test;

TEST_CASE("energy: doubling a memory's capacity never lowers its energy per byte (table)", "[energy]") {
  const npusim::EnergyTable t = npusim::load_energy_table(source_path("configs/energy/default-16nm.json"));
  std::mt19937_64 rng(16);
  for (const auto& spec : npusim::energy_classes()) {
    if (!spec.capacity_scaled) continue;
    for (const auto& action : spec.actions)
      for (int i = 0; i < 50; ++i) {
        const std::uint64_t c = 64 + rng() % (std::uint64_t(1) << 32);
        INFO(spec.name << " " << action << " at " << c << " bytes");
        CHECK(t.action_pj(spec.name, action, 2 * c) >= t.action_pj(spec.name, action, c));
      }
  }
}

TEST_CASE("energy: doubling NRAM does not lower the energy per NRAM byte of a run", "[energy]") {
  const std::string dir = scratch_dir("energy-nram");
  write_text(dir + "/conv.jsonl", conv_trace(8, 8, 64, 64, "int8"));
  double previous = 0;
  std::uint64_t bytes = 0;
  for (std::uint64_t kib : {256, 512, 1024, 2048, 4096}) {
    INFO(kib << " KiB");
    const std::string name = "nram" + std::to_string(kib);
    const std::string config =
        write_config(dir, name + ".json", "default.json", {{"core", {{"nram", {{"capacity_bytes", kib * 1024}}}}}});
    const json r = run_report({"--config", config, "--trace", dir + "/conv.jsonl"}, dir + "/" + name);
    const json& nram = row_named(r["energy"]["memories"], "core0.nram");
    const json& port = row_named(r["memories"], "core0.nram");
    const std::uint64_t moved = port["bytes_read"].get<std::uint64_t>() + port["bytes_written"].get<std::uint64_t>();
    REQUIRE(moved > 0);
    if (bytes) CHECK(moved == bytes);  // the same trace moves the same bytes
    bytes = moved;
    const double per_byte = nram["dynamic_pj"].get<double>() / double(moved);
    CHECK(per_byte >= previous);
    previous = per_byte;
  }
}

namespace {
// One sparse_conv of an h x w x ci map into co channels with `zeros` of the map assumed zero.
std::string sparse_trace(unsigned h, unsigned w, unsigned ci, unsigned co, double zeros, unsigned seed) {
  const std::uint64_t n = std::uint64_t(h) * w * ci, m = std::uint64_t(co) * 9 * ci;
  auto operand = [](std::uint64_t offset, json shape, const char* type) {
    return json{{"space", "dram"}, {"offset", offset}, {"shape", shape}, {"dtype", type}};
  };
  const json header = {{"format", "npusim-trace"}, {"version", 1}};
  const json conv = {{"id", 0},
                     {"op", "sparse_conv"},
                     {"inputs",
                      {operand(0, {n}, "int8"), operand(1 << 20, {n}, "int32"), operand(8 << 20, {m}, "int8"),
                       operand(9 << 20, {m}, "int32")}},
                     {"outputs", {operand(16 << 20, {h, w, co}, "int32")}},
                     {"params",
                      {{"ifm_shape", {h, w, ci}},
                       {"kernel", {3, 3}},
                       {"stride", {1, 1}},
                       {"padding", {1, 1, 1, 1}},
                       {"assumed_sparsity", {{"ifm", zeros}, {"weights", 0.5}, {"seed", seed}}}}}};
  return header.dump() + "\n" + conv.dump() + "\n";
}
}  // namespace

TEST_CASE("energy: a sparser layer on the sparse cluster uses no more MAC energy", "[energy]") {
  const std::string dir = scratch_dir("energy-sparse");
  std::mt19937 rng(7);
  for (int shape = 0; shape < 3; ++shape) {
    const unsigned h = 8 + rng() % 17, w = 8 + rng() % 17, ci = 4 + rng() % 13, co = 2 + rng() % 7;
    double previous = -1;
    for (double zeros : {0.3, 0.6, 0.8, 0.95}) {
      INFO(h << "x" << w << "x" << ci << " -> " << co << " at " << zeros << " zeros");
      const std::string name = "s" + std::to_string(shape) + "-" + std::to_string(int(zeros * 100));
      write_text(dir + "/" + name + ".jsonl", sparse_trace(h, w, ci, co, zeros, 3 + shape));
      const json r = run_report({"--config", source_path("configs/sparse.json"), "--trace", dir + "/" + name + ".jsonl"},
                                dir + "/" + name);
      const double mac = row_named(r["energy"]["classes"], "mac")["dynamic_pj"];
      CHECK(mac > 0);
      if (previous >= 0) CHECK(mac <= previous);
      previous = mac;
    }
  }
}
