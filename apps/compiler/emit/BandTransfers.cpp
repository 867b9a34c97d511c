// The shared transport: band windows of DRAM tensors moved into and out of NRAM band
// slots by the load and store DMAs, and weight blocks loaded for the units that read them.
#include <algorithm>

#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/emit/TraceOperands.h"

namespace npusim {

std::vector<std::uint64_t> weight_shape(const Layer& l, const LayerTiling& t, std::uint32_t co, std::uint32_t ci) {
  if (l.kind == LayerKind::Depthwise) return {t.kernel_h, t.kernel_w, l.in.c};
  return {co, t.kernel_h, t.kernel_w, ci};
}

TensorOperand memory_operand(const WindowPiece& piece) {
  TensorOperand t = tensor(piece.cache ? AddressSpace::Cluster : AddressSpace::Dram, piece.address, piece.shape, DType::Int8);
  t.pitch = piece.pitch;
  t.cluster = piece.cache;
  return t;
}

std::uint64_t EmitContext::weights_at(std::uint32_t core) const {
  const CompiledLayer& c = layer();
  const std::uint64_t local = c.weight_copies[dram_.memory_of_cluster(core / hw_.chip.cores_per_cluster)];
  return local != kNoCopy ? local : c.weights_offset;
}

// The pieces of a band in the order a core should move them: from the first one in its
// own cluster's memory on, so that cores of different clusters that move the same band
// start on different memories instead of queueing on one.
std::vector<DramChunk> EmitContext::local_first(std::uint32_t core, std::vector<DramChunk> pieces) const {
  const std::uint32_t cluster = core / hw_.chip.cores_per_cluster, own = dram_.memory_of_cluster(cluster);
  auto local = std::find_if(pieces.begin(), pieces.end(), [&](const DramChunk& p) {
    return p.cache ? *p.cache == cluster : dram_.memory_of(p.address) == own;
  });
  if (local != pieces.end()) std::rotate(pieces.begin(), local, pieces.end());
  return pieces;
}

// The DRAM side of moving `rows` map rows (from map row `row`) of an NHWC tensor with
// `w` positions of `c` channels per row, channels [c0, c0 + cn) of each: one piece per
// chunk it spans (a window of wider rows is pitched), in the order `core` should move
// them, each with its offset in the dense NRAM copy. A tensor of one position per image
// may be cut along c (an fc input placed by its model-ci readers).
std::vector<WindowPiece> EmitContext::window_pieces(std::uint32_t core, const DramTensor& t, std::uint64_t row,
                                                    std::uint64_t rows, std::uint32_t w, std::uint32_t c,
                                                    std::uint32_t c0, std::uint32_t cn) const {
  const std::uint64_t row_bytes = std::uint64_t(w) * c, first = row * row_bytes;
  std::vector<WindowPiece> out;
  if (rows * w == 1) {
    for (const DramChunk& p : local_first(core, t.pieces(first + c0, first + c0 + cn)))
      out.push_back({p.address, p.first - first - c0, nhwc(1, 1, 1, p.bytes), 0, p.first == first + c0, p.cache});
    return out;
  }
  for (const DramChunk& p : local_first(core, t.pieces(first, first + rows * row_bytes)))
    out.push_back({p.address + c0, (p.first - first) / row_bytes * w * cn, nhwc(1, p.bytes / row_bytes, w, cn),
                   cn != c ? c : 0, p.first == first, p.cache});
  return out;
}

BandSlot EmitContext::band_slot(std::uint32_t index, std::size_t inputs) const {
  const LayerTiling& t = layer().tiling;
  BandSlot s;
  s.index = index;
  s.base = t.fixed_bytes + index * t.slot_bytes;
  s.acc_at = s.base + t.in_bytes * inputs;
  s.out_at = s.acc_at + t.acc_bytes;
  return s;
}

BandSlot EmitContext::next_slot(CoreState& cs, std::size_t inputs) const {
  return band_slot(std::uint32_t(cs.emitted++ % layer().tiling.buffers), inputs);
}

void EmitContext::emit_band_loads(std::uint32_t core, const std::vector<WindowPiece>& pieces, std::uint64_t at,
                                  std::int64_t reader, bool row_by_row, const InputBytes& bytes, BandWriters& loads) {
  const CoreState& cs = cores_[core];
  // SharedReads.cpp; a band kept in a cluster cache is read from it by every core (no multicast).
  const bool from_dram = !pieces.empty() && !pieces.front().cache;
  SharedBand* shared = shares_bands() && from_dram ? &shared_band(core, pieces) : nullptr;
  std::size_t k = 0;
  for (const WindowPiece& piece : pieces) {
    Instruction load = make_op("load", core);
    load.inputs = {memory_operand(piece)};
    load.outputs = {tensor(AddressSpace::Nram, at + piece.offset, piece.shape, DType::Int8)};
    depend(load, reader);
    if (shared && shared->lead != core) {  // a copy of the same piece the cluster's first reader took
      load.params["multicast"] = "core";
      depend(load, shared->reads.at(k++), DependencyMode::TwoPhase);
    }
    if (!cs.loaded_ifmap) {
      depend(load, cs.last_store);
      wait_for_producers(load);
    }
    wait_for_writers(load, bytes);
    const bool staged = piece.starts && row_by_row;
    loads.emplace_back(push(std::move(load)), staged ? DependencyMode::Staged : DependencyMode::Full);
    if (shared && shared->lead == core) shared->reads.push_back(std::int64_t(loads.back().first));
    record_read(loads.back().first, bytes.input);
  }
}

// Loads of the input band(s), one per DRAM chunk it spans (a ci share: rows of `cn`
// bytes, `in.c` apart); the first waits for the producers and for this core's NRAM.
BandWriters EmitContext::load_band(std::uint32_t core, const BandSlot& slot, const BandWindow& window,
                                   std::uint32_t image, std::size_t inputs, std::uint32_t c0, std::uint32_t cn,
                                   bool row_by_row) {
  const Layer& l = layer().layer;
  const LayerTiling& t = layer().tiling;
  BandWriters loads;
  const std::uint64_t row = std::uint64_t(image) * l.in.h + window.in_row0;
  const std::uint64_t row_bytes = std::uint64_t(l.in.w) * l.in.c;
  for (std::size_t i = 0; i < inputs; ++i)
    emit_band_loads(core, window_pieces(core, layer().inputs[i], row, window.in_rows, l.in.w, l.in.c, c0, cn),
                    slot.base + i * t.in_bytes, cores_[core].in_reader[slot.index], row_by_row,
                    {i, row * row_bytes, (row + window.in_rows) * row_bytes}, loads);
  cores_[core].loaded_ifmap = true;
  return loads;
}

// A channel block lands in its channels of the NHWC output: rows of `co` bytes, `out.c`
// apart; one store per DRAM chunk the band spans, the first released row by row.
void EmitContext::emit_band_store(std::uint32_t core, const BandWriters& writers, std::uint64_t out_at,
                                  std::uint32_t slot, std::uint64_t tile, std::uint32_t first_co, std::uint32_t co) {
  const auto band = layer().tiling.band_tile(layer().layer, tile);
  emit_rows_store(core, writers, out_at, slot, {band.image, band.row0, band.rows}, first_co, co);
}

void EmitContext::emit_rows_store(std::uint32_t core, const BandWriters& writers, std::uint64_t out_at,
                                  std::uint32_t slot, const OutputRows& band, std::uint32_t first_co, std::uint32_t co) {
  const CompiledLayer& c = layer();
  const Layer& l = c.layer;
  CoreState& cs = cores_[core];
  const std::uint64_t row = std::uint64_t(band.image) * l.out.h + band.row0;
  std::int64_t previous = kNone;
  for (const WindowPiece& piece : window_pieces(core, c.output, row, band.rows, l.out.w, l.out.c, first_co, co)) {
    Instruction store = make_op("store", core);
    store.inputs = {tensor(AddressSpace::Nram, out_at + piece.offset, piece.shape, DType::Int8)};
    store.outputs = {memory_operand(piece)};
    for (const auto& [id, mode] : writers) depend(store, std::int64_t(id), piece.starts ? mode : DependencyMode::Full);
    // Readers wait for the band's last store only; with DMA instructions in flight it
    // could land before an earlier piece, so each piece also waits for the one before.
    if (previous != kNone) depend(store, previous);
    wait_for_overwritten(store, cs);
    previous = std::int64_t(push(std::move(store)));
    remember_store(cs, previous);
    const std::uint64_t row_bytes = std::uint64_t(l.out.w) * l.out.c;
    record_write(std::uint64_t(previous), row * row_bytes, (row + band.rows) * row_bytes);
  }
  cs.out_reader[slot] = cs.last_store;
}

// One load per DRAM run of the block; a ci share is a window of every kernel row: rows
// of `ci` bytes, `in.c` apart. Depthwise weights are one block of every channel.
std::size_t EmitContext::emit_weights(std::uint32_t core, const TensorOperand& to, const std::vector<std::int64_t>& readers,
                               std::pair<std::uint32_t, std::uint32_t> co, std::pair<std::uint32_t, std::uint32_t> ci,
                               std::int64_t& weights) {
  const CompiledLayer& c = layer();
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const bool depthwise = l.kind == LayerKind::Depthwise;
  const std::uint32_t ci_stored = l.in.c / l.groups;  // a grouped conv stores one group's inputs per output
  const std::uint64_t per_co = std::uint64_t(t.kernel_h) * t.kernel_w * ci_stored;  // in DRAM
  const std::uint64_t per_co_loaded = std::uint64_t(t.kernel_h) * t.kernel_w * ci.second;
  const std::uint64_t begin = co.first * per_co;
  const std::uint64_t end = depthwise ? c.weight_bytes : begin + co.second * per_co;
  const bool shared = shares_weights(c);  // SharedReads.cpp
  const DramTensor all = !c.spread_weights.chunks.empty()
                            ? c.spread_weights
                            : DramTensor{{{0, c.weight_bytes, weights_at(shared ? weight_lead(core) : core), std::nullopt}}};
  if (shared) weight_lead(core);
  std::size_t k = 0;  // loads so far
  for (const DramChunk& piece : all.pieces(begin, end)) {
    const std::uint32_t rows = depthwise ? co.second : std::uint32_t(piece.bytes / per_co);
    const auto shape = weight_shape(l, t, rows, ci.second);
    Instruction load = make_op("load", core);
    load.inputs = {tensor(AddressSpace::Dram, piece.address + ci.first, shape, DType::Int8)};
    if (ci.second != ci_stored && !depthwise) load.inputs[0].pitch = ci_stored;
    load.outputs = {to};
    load.outputs[0].offset += (piece.first - begin) / per_co * per_co_loaded;
    load.outputs[0].shape = shape;
    for (std::int64_t id : readers) depend(load, id);
    if (shared) share_weight_piece(load, k);
    ++k;
    weights = std::int64_t(push(std::move(load)));
    if (shared) shared_piece_pushed(core, std::uint64_t(weights));
  }
  return k;
}

}  // namespace npusim
