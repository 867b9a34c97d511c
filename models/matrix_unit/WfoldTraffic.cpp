// The bus traffic and busy cycles of a Wfold plan, counted in closed form (seed000 §3.5-3.6).
#include "models/matrix_unit/WfoldTraffic.h"

#include <algorithm>
#include <cmath>

#include "models/matrix_unit/MasterReads.h"

namespace npusim {

namespace {

Cycles bus_cycles(std::uint64_t bytes, const BusConfig& bus) {
  return static_cast<Cycles>(std::ceil(static_cast<double>(bytes) / bus.bytes_per_cycle));
}

// NRAM requests and relay rows to form `rows` data rows in each of the Bci Pci blocks (one first-buffer
// window per block); in relay mode only block 0 reads NRAM, the later blocks come from the relay.
WindowReads piece_reads(const WfoldPlan& p, const MatrixUnitConfig& cfg, std::uint64_t rows) {
  WindowReads all;
  for (std::uint32_t b = 0; b < p.bci; ++b) {
    const WindowReads w = window_reads(p, cfg, rows, b);
    all.ram_requests += w.ram_requests;
    all.relay_rows += w.relay_rows;
  }
  return all;
}

// A lower bound of the pipeline's total: the CU arrays compute and the write-back port issues
// one after another, and the buses move their bytes at no more than their rates (the busy
// figures round each window up to whole cycles, so they are not bounds themselves).
Cycles busiest_resource(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  const auto at_rate = [](double bytes, double bytes_per_cycle) {
    return Cycles(std::min(bytes / bytes_per_cycle, 0x1p63));  // a huge layer on a slow bus must not overflow
  };
  const Cycles broadcast = at_rate(double(p.broadcast_bytes), cfg.broadcast_bus.bytes_per_cycle);
  // The busiest slave link carries at least its share of the weight bytes.
  const Cycles link = at_rate(double(p.distribution_bytes) / p.ns, cfg.distribution_bus.bytes_per_cycle);
  return std::max({p.cycles.compute, p.cycles.write_back, broadcast, link});
}

// Traffic and busy cycles of `times` identical segments of kw piece `k` in co round `block`.
void add_piece_traffic(WfoldPlan& p, const MatrixUnitConfig& cfg, const CoBlock& block, const KwPiece& k,
                       std::uint64_t times) {
  CycleEstimate& c = p.cycles;
  const Cycles fill = bus_cycles(std::uint64_t(k.data_rows) * p.m_bytes, cfg.broadcast_bus);
  const Cycles compute = Cycles(k.length) * block.nco;
  // Each slave streams its own region of the second storage circuit (¶72), so the
  // slaves load in parallel: Nco Pci slices per kw step each.
  const Cycles weights = Cycles(k.length) * bus_cycles(std::uint64_t(block.nco) * p.pci.bytes, cfg.distribution_bus);
  const std::uint64_t segments = times * p.nkh * p.bci;
  c.compute += compute * segments;
  c.input_fill += fill * segments;
  c.weight_fill += weights * segments;
  p.data_rows += std::uint64_t(k.data_rows) * segments;
  const WindowReads reads = piece_reads(p, cfg, k.data_rows);
  p.read_requests += reads.ram_requests * p.nkh * times;
  p.relay_rows += reads.relay_rows * p.nkh * times;
  if (p.reads.mode == DataRowRead::Relay)  // block 0 of each window fills the relay with whole positions
    p.relay_bytes_written += std::uint64_t(k.data_rows) * p.ws * p.reads.stride_bytes * p.nkh * times;
  p.weight_rows += std::uint64_t(k.length) * block.count * segments;
}

}  // namespace

// Busy cycles and traffic of the whole layer, in closed form: every image row has the same tiles,
// full co rounds are alike, and so are full wo tiles; only the last round and the last tile differ.
void estimate_wfold_traffic(WfoldPlan& p, const MatrixUnitConfig& cfg) {
  std::uint32_t max_rows = 0;
  for (const KwPiece& k : p.kw_pieces) max_rows = std::max(max_rows, k.data_rows);
  p.cycles.inputs_overlap = 2 * max_rows <= p.l1;
  const std::uint64_t rows_scale = std::uint64_t(p.layer.n) * p.ho;
  for (const CoRoundKind& round : co_round_kinds(p)) {
    const std::uint64_t tile_rows = rows_scale * round.rounds;
    for (const KwPiece& k : p.kw_pieces) add_piece_traffic(p, cfg, *round.block, k, tile_rows * p.wo_tiles);
    for (const WoTileKind& tile : wo_tile_kinds(p)) {
      const TileWrites writes = tile_writes(p, tile.wo_valid, round.block->count, cfg.write_back.bytes_per_cycle);
      p.cycles.write_back += writes.cycles * tile_rows * tile.tiles;
      p.write_requests += writes.requests * tile_rows * tile.tiles;
    }
  }
  p.broadcast_bytes = p.data_rows * p.m_bytes;
  // Every compute cycle each CU of each slave updates its Ws accumulators of the co slot.
  p.third_buffer_bytes = p.cycles.compute * p.ns * p.ncu * p.ws * WfoldPlan::kAccumulatorBytes;
  p.distribution_bytes = p.weight_rows * p.pci.bytes;
  p.output_bytes = std::uint64_t(p.layer.n) * p.ho * p.wo * p.layer.co * p.output_element_bytes;
  p.cycles.busiest = busiest_resource(p, cfg);
}


}  // namespace npusim
