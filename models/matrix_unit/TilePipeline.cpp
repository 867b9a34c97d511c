#include "models/matrix_unit/TilePipeline.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/matrix_unit/MasterReads.h"
#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

namespace {

// Sums of fractional byte rates: a value within rounding of a whole cycle counts as that cycle.
Cycles ceil_cycles(double cycles) {
  return static_cast<Cycles>(std::ceil(cycles - std::max(1e-9, cycles * 1e-12)));
}

// The weight rows of one slave's distribution link (rules 3-4), followed segment by segment:
// rows stream at Pci / bytes_per_cycle cycles each from where the link stopped, at most `ring`
// rows ahead of the compute cycles consuming them. A ring slot goes round consume, reload and
// latency (`slot_loop` cycles). When the link keeps up (a row in at most a cycle) and the ring
// covers its loop, rows only matter at a segment's start; otherwise (`row_by_row`) the link
// or the ring holds the CU arrays back and the rows are followed one by one.
struct WeightStream {
  double row_cycles = 1;  // link time of one row
  Cycles latency = 0;
  std::uint32_t ring = 1;
  Cycles slot_loop = 0;
  double link_free = 0;                 // when the link finished its last row so far
  std::vector<std::int64_t> consumed;   // row by row: compute cycle of each of the last `ring` rows
  std::size_t oldest = 0;

  bool row_by_row() const { return slot_loop > Cycles(ring) || row_cycles > 1 + 1e-9; }
  // The ring is empty and the link idle until `gate` (a serial tile's start).
  void restart(Cycles gate) {
    if (double(gate) <= link_free) return;
    link_free = double(gate);
    std::fill(consumed.begin(), consumed.end(), std::numeric_limits<std::int64_t>::min() / 2);
  }
  // Rows loaded and usable by cycle `at`, if the link may run from `link_free` (at most `cap`).
  std::uint64_t usable_by(Cycles at, std::uint64_t cap) const {
    const double span = double(at) - double(latency) - link_free;
    if (span < row_cycles - 1e-9) return 0;
    return std::min<std::uint64_t>(cap, std::uint64_t(span / row_cycles + 1e-9));
  }
  // When the next row may start loading: the link is free and its slot was freed.
  double paced_load_start() const { return std::max(link_free, double(consumed[oldest] + 1)); }
  // When row 0 of the next segment may be consumed.
  Cycles first_row_ready() const {
    const double start = row_by_row() ? paced_load_start() : link_free;
    return ceil_cycles(start + row_cycles) + latency;
  }

  // A segment of `rows` rows whose compute starts at `begin`: when its compute ends.
  Cycles consume(Cycles begin, std::uint64_t rows) {
    if (row_by_row()) return consume_row_by_row(begin, rows);
    const std::uint64_t preloaded = usable_by(begin, std::min<std::uint64_t>(ring, rows));
    const std::uint64_t rest = rows - preloaded;
    Cycles end = begin + rows;  // one compute cycle per row
    double loaded = link_free + double(preloaded) * row_cycles;
    if (rest > 0) {
      // A full ring resumes when the segment's first row has been consumed.
      const double resume = preloaded == ring ? std::max(loaded, double(begin + 1)) : loaded;
      loaded = resume + double(rest) * row_cycles;
      end = std::max(end, ceil_cycles(loaded) + latency + 1);
    }
    // The segment's last row could not start loading before its ring slot was freed.
    if (rows > ring) loaded = std::max(loaded, double(begin + rows - ring) + row_cycles);
    link_free = loaded;
    return end;
  }

  // Each row loads once the link is free and its slot has been consumed, and is consumed
  // once usable.
  Cycles consume_row_by_row(Cycles begin, std::uint64_t rows) {
    std::int64_t at = std::int64_t(begin) - 1;
    for (std::uint64_t j = 0; j < rows; ++j) {
      link_free = paced_load_start() + row_cycles;
      at = std::max(at + 1, std::int64_t(ceil_cycles(link_free) + latency));
      consumed[oldest] = at;
      oldest = (oldest + 1) % ring;
    }
    return Cycles(at) + 1;
  }
};

struct Recurrence {
  const WfoldPlan& p;
  const MatrixUnitConfig& cfg;
  TilePipeline& out;
  WeightStream weights;
  double bus_free = 0;  // the broadcast bus streams windows back to back (rule 1)
  Cycles read_free = 0;   // the master's NRAM read port forms them back to back (rule 1a)
  Cycles relay_free = 0;  // the relay's read port gives their rows out back to back

  // Rule 1a: the NRAM reads start the window under the same gates as the bus; with the relay,
  // its rows come out once the window's requests into it are through and the relay's read port
  // is free. Returns when the window's reads are through.
  Cycles read_window(const KwPiece& k, std::uint64_t segment, Cycles slot, Cycles gate) {
    const WindowReads reads = window_reads(p, cfg, k.data_rows, std::uint32_t(segment % p.bci));
    read_free = std::max({read_free, slot, gate}) + nram_read_cycles(reads, cfg);
    if (reads.relay_rows == 0) return read_free;
    relay_free = std::max({relay_free, slot, gate, reads.relay_writes > 0 ? read_free : Cycles(0)}) +
                 relay_read_cycles(reads, cfg);
    return relay_free;
  }
  Cycles last_end = 0;
  std::vector<Cycles> slot_free;  // per first-buffer window slot: when its segment's compute ends

  // Runs one tile (its segments in order), given when the master may start it and when its
  // third-buffer set frees; returns the tile's times up to its compute end.
  TileTimes run_tile(std::uint32_t nco, Cycles start_gate, Cycles set_gate, std::size_t& window) {
    TileTimes times;
    bool first = true;
    weights.restart(start_gate);
    for (const KwPiece& k : p.kw_pieces) {
      const double fill = double(k.data_rows) * p.m_bytes / cfg.broadcast_bus.bytes_per_cycle;
      const std::uint64_t rows = std::uint64_t(k.length) * nco;
      for (std::uint64_t s = 0; s < std::uint64_t(p.nkh) * p.bci; ++s, ++window) {
        Cycles& slot = slot_free[window % slot_free.size()];
        const double send = std::max({bus_free, double(slot), first ? double(start_gate) : 0.0});
        bus_free = send + fill;
        const Cycles window_ready = std::max(ceil_cycles(bus_free), read_window(k, s, slot, first ? start_gate : 0)) +
                                    cfg.broadcast_bus.latency;
        const Cycles weights_ready = weights.first_row_ready();
        const Cycles gate = first ? std::max(set_gate, start_gate) : Cycles(0);
        const Cycles begin = std::max({last_end, window_ready, weights_ready, gate});
        account_stall(begin, gate, window_ready);
        if (first) {
          times.fill_start = Cycles(send);
          times.first_compute = begin;
        }
        last_end = weights.consume(begin, rows);
        out.stalls.weights += last_end - (begin + rows);  // rows that came late inside the segment
        slot = last_end;
        first = false;
      }
    }
    times.compute_end = last_end;
    return times;
  }

  // Splits the CU arrays' idle gap before `begin` by the first missing condition (rule 5 of
  // docs/fidelity.md): the result set (or serial tile gate), then the window, then the weights.
  void account_stall(Cycles begin, Cycles gate, Cycles window_ready) {
    if (begin <= last_end) return;
    Cycles from = last_end;
    const Cycles set_until = std::min(begin, std::max(from, gate));
    out.stalls.result_set += set_until - from;
    from = set_until;
    const Cycles window_until = std::min(begin, std::max(from, window_ready));
    out.stalls.window += window_until - from;
    out.stalls.weights += begin - window_until;
  }
};

WeightStream weight_stream(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  WeightStream w;
  w.row_cycles = double(p.pci.bytes) / cfg.distribution_bus.bytes_per_cycle;
  w.latency = cfg.distribution_bus.latency;
  w.ring = std::max<std::uint32_t>(1, p.second_buffer_ring);
  w.slot_loop = 1 + ceil_cycles(w.row_cycles) + w.latency;
  if (w.row_by_row()) w.consumed.assign(w.ring, std::numeric_limits<std::int64_t>::min() / 2);
  return w;
}

}  // namespace

std::uint32_t third_buffer_sets(const WfoldPlan& plan, const MatrixUnitConfig& cfg) {
  const std::uint64_t fits = cfg.third_buffer_bytes / std::max<std::uint32_t>(1, plan.third_buffer_bytes_needed);
  return std::uint32_t(std::clamp<std::uint64_t>(fits, 1, cfg.third_buffer_depth));
}

double pipeline_steps(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  const double segments = double(p.kw_pieces.size()) * p.nkh * p.bci;
  const double rows = weight_stream(p, cfg).row_by_row() ? double(p.ncycle_per_tile) : 0.0;
  return double(p.tiles) * (segments + rows);
}

TilePipeline schedule_tiles(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  TilePipeline out;
  out.window_slots = p.cycles.inputs_overlap ? 2 : 1;
  out.result_sets = third_buffer_sets(p, cfg);
  const bool serial = out.result_sets == 1;
  Recurrence r{p, cfg, out, weight_stream(p, cfg), 0, 0, 0, 0, std::vector<Cycles>(out.window_slots, 0)};
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
          TileTimes t = r.run_tile(block.nco, start_gate, set_gate, window);
          const std::uint32_t wo_valid = std::min(p.wo_per_tile, p.wo - w * p.wo_per_tile);
          t.write_start = std::max(t.compute_end + cfg.mac_latency, write_free);
          // The port is held by the tile's requests, or by its readout if that is slower (rule 8).
          const Cycles requests = tile_writes(p, wo_valid, block.count, cfg.write_back.bytes_per_cycle).cycles;
          write_free = t.write_start + std::max(requests, readout_cycles(p, block, cfg));
          t.write_end = write_free + cfg.write_back.latency;
          out.tiles.push_back(t);
        }
  out.total = out.tiles.empty() ? 0 : out.tiles.back().write_end;
  out.stalls.drain = out.total - r.last_end;
  return out;
}

}  // namespace npusim
