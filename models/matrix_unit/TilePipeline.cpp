#include "models/matrix_unit/TilePipeline.h"

#include <algorithm>
#include <cmath>

#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

namespace {

Cycles ceil_cycles(double cycles) { return static_cast<Cycles>(std::ceil(cycles - 1e-9)); }

// A kw piece's segment: one window and its compute, the same for every kh and bci.
struct SegmentCost {
  Cycles fill = 0;      // broadcast-bus cycles of its window
  Cycles compute = 0;   // compute cycles, stretched when the weight links cannot keep up
};

// Cycles per compute cycle the weight links allow in steady state: one row per co slot, each
// Pci bytes over the slave's link; a ring of `ring` rows reloads a slot only after its row is
// consumed, so `ring` rows must cover one row's consume-load-latency loop (rule 4).
double weight_row_period(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  const double load = double(p.pci.bytes) / cfg.distribution_bus.bytes_per_cycle;
  const double loop = 1.0 + double(ceil_cycles(load)) + double(cfg.distribution_bus.latency);
  return std::max({1.0, load, loop / double(std::max<std::uint32_t>(1, p.second_buffer_ring))});
}

struct Recurrence {
  const WfoldPlan& p;
  const MatrixUnitConfig& cfg;
  TilePipeline& out;
  double row_period;
  Cycles bus_free = 0, last_end = 0;
  std::vector<Cycles> slot_free;  // per first-buffer window slot: when its segment's compute ends

  // Runs tile `t` (its segments in order), given when the master may start it and when its
  // third-buffer set frees; returns the tile's times up to its compute end.
  TileTimes run_tile(std::uint32_t nco, Cycles start_gate, Cycles set_gate, bool link_restarts, std::size_t& window) {
    TileTimes times;
    bool first = true;
    for (const KwPiece& k : p.kw_pieces) {
      SegmentCost seg;
      seg.fill = ceil_cycles(double(k.data_rows) * p.m_bytes / cfg.broadcast_bus.bytes_per_cycle);
      seg.compute = ceil_cycles(double(k.length) * nco * row_period);
      for (std::uint64_t s = 0; s < std::uint64_t(p.nkh) * p.bci; ++s, ++window) {
        Cycles& slot = slot_free[window % slot_free.size()];
        const Cycles send = std::max({bus_free, slot, first ? start_gate : Cycles(0)});
        bus_free = send + seg.fill;
        const Cycles window_ready = send + seg.fill + cfg.broadcast_bus.latency;
        Cycles weights_ready = 0;
        if (first && link_restarts)
          weights_ready = start_gate + ceil_cycles(double(p.pci.bytes) / cfg.distribution_bus.bytes_per_cycle) +
                          cfg.distribution_bus.latency;
        const Cycles gate = first ? std::max(set_gate, start_gate) : Cycles(0);
        const Cycles begin = std::max({last_end, window_ready, weights_ready, gate});
        account_stall(begin, gate, window_ready, weights_ready);
        if (first) {
          times.fill_start = send;
          times.first_compute = begin;
        }
        last_end = begin + seg.compute;
        slot = last_end;
        first = false;
      }
    }
    times.compute_end = last_end;
    return times;
  }

  // Splits the CU arrays' idle gap before `begin` by cause: the result set (or serial tile
  // gate) first, then whichever operand came last.
  void account_stall(Cycles begin, Cycles gate, Cycles window_ready, Cycles weights_ready) {
    if (begin <= last_end) return;
    const Cycles set_part = gate > last_end ? std::min(begin, gate) - last_end : 0;
    out.stalls.result_set += set_part;
    const Cycles rest = begin - last_end - set_part;
    (weights_ready > window_ready ? out.stalls.weights : out.stalls.window) += rest;
  }
};

}  // namespace

std::uint32_t third_buffer_sets(const WfoldPlan& plan, const MatrixUnitConfig& cfg) {
  const std::uint64_t fits = cfg.third_buffer_bytes / std::max<std::uint32_t>(1, plan.third_buffer_bytes_needed);
  return std::uint32_t(std::clamp<std::uint64_t>(fits, 1, cfg.third_buffer_depth));
}

TilePipeline schedule_tiles(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  TilePipeline out;
  out.window_slots = p.cycles.inputs_overlap ? 2 : 1;
  out.result_sets = third_buffer_sets(p, cfg);
  const bool serial = out.result_sets == 1;
  Recurrence r{p, cfg, out, weight_row_period(p, cfg), 0, 0, std::vector<Cycles>(out.window_slots, 0)};
  out.tiles.reserve(p.tiles);
  std::size_t window = 0;
  Cycles write_free = 0;  // when the write-back port has issued the last request so far
  for (std::uint32_t n = 0; n < p.layer.n; ++n)
    for (const CoBlock& block : p.co_blocks)
      for (std::uint32_t row = 0; row < p.ho; ++row)
        for (std::uint32_t w = 0; w < p.wo_tiles; ++w) {
          const std::size_t i = out.tiles.size();
          const Cycles set_gate = i >= out.result_sets ? out.tiles[i - out.result_sets].write_end : 0;
          const Cycles start_gate = serial && i > 0 ? out.tiles[i - 1].write_end : 0;
          TileTimes t = r.run_tile(block.nco, start_gate, set_gate, serial || i == 0, window);
          const std::uint32_t wo_valid = std::min(p.wo_per_tile, p.wo - w * p.wo_per_tile);
          t.write_start = std::max(t.compute_end + cfg.mac_latency, write_free);
          write_free = t.write_start + tile_writes(p, wo_valid, block.count, cfg.write_back.bytes_per_cycle).cycles;
          t.write_end = write_free + cfg.write_back.latency;
          out.tiles.push_back(t);
        }
  out.total = out.tiles.empty() ? 0 : out.tiles.back().write_end;
  out.stalls.drain = out.total - r.last_end;
  return out;
}

}  // namespace npusim
