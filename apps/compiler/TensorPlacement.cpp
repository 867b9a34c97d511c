// Where a compiled workload's tensors go in DRAM (seed002 §3.4) and the DRAM traffic
// each layer causes, by cluster.
#include "apps/compiler/TraceEmitter.h"

#include <algorithm>
#include <map>

#include "apps/compiler/emit/TraceOperands.h"
#include "models/interconnect/Interconnect.h"

namespace npusim {

// The map rows (images x height) a layer's cores read (`reading`) or write, as runs of
// (rows, memory of the cluster whose cores take them), in row order. Data mode deals
// bands in contiguous runs, so a cluster's rows start at its first core's first band
// (its first window's first input row when reading); model modes read every row on
// every core, so the rows are shared out evenly; model-ci's first core writes them all.
std::vector<std::pair<std::uint64_t, std::uint32_t>> TraceEmitter::row_runs(const CompiledLayer& c, bool reading) const {
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const std::uint64_t height = reading ? l.in.h : l.out.h, total = std::uint64_t(w_.batch) * height;
  const std::uint64_t cores = t.cores.size(), tiles = t.tiles(w_.batch);
  auto row_of = [&](std::uint64_t tile) -> std::uint64_t {
    if (tile >= tiles) return total;
    const auto band = t.band_tile(l, tile);
    return std::uint64_t(band.image) * height + (reading ? band.window.in_row0 : band.row0);
  };
  std::vector<std::pair<std::uint64_t, std::uint32_t>> runs;
  if (!reading && t.split == ParallelMode::ModelCi)
    return {{total, dram_.memory_of_cluster(t.cores.front() / hw_.chip.cores_per_cluster)}};
  std::uint64_t done = 0;
  for (std::uint64_t k = 0; k < cores; ++k) {
    const std::uint64_t end = std::max(done, t.split == ParallelMode::Data ? row_of(tiles * (k + 1) / cores)
                                                                           : total * (k + 1) / cores);
    const std::uint32_t memory = dram_.memory_of_cluster(t.cores[k] / hw_.chip.cores_per_cluster);
    if (!runs.empty() && runs.back().second == memory)
      runs.back().first += end - done;
    else
      runs.emplace_back(end - done, memory);
    done = end;
  }
  return runs;
}

// DRAM in workload order: the network input first, then per layer its input
// (independent layers only), weights and output. On a chip with separate memories an
// activation is cut into the rows each cluster's cores take, each run in that cluster's
// memory (seed002 §3.4): by its first reader's bands when that reader is data
// parallel, else by its producer's; weights by place_weights. The shader and sparse
// paths address their tensors as one region. When the DRAM is reused (DramPlacement),
// a layer's output may take the bytes of tensors whose last reader came before it.
void TraceEmitter::place_tensors(const HardwareConfig& hw) {
  auto on_dma = [](const CompiledLayer* c) { return c && !c->tiling.on_shader && !c->tiling.on_sparse; };
  auto data = [&](const CompiledLayer* c) { return on_dma(c) && c->tiling.split == ParallelMode::Data; };
  std::map<std::string, bool> chunkable = {{"input", true}};
  std::map<std::string, const CompiledLayer*> first_reader;
  for (const auto& c : layers_) {
    chunkable[c.layer.name] = on_dma(&c);
    for (const auto& name : c.layer.inputs) {
      chunkable[name] = chunkable[name] && on_dma(&c);
      first_reader.emplace(name, &c);
    }
  }
  // The runs (bytes, memory) of an activation of `rows` map rows of `row_bytes`,
  // written by `producer` (or none).
  using Runs = std::vector<std::pair<std::uint64_t, std::uint32_t>>;
  auto activation = [&](const std::string& name, const CompiledLayer* producer, const CompiledLayer* reader,
                        std::uint64_t rows, std::uint64_t row_bytes) -> Runs {
    Runs runs = {{rows, 0}};
    const bool vector_input = rows * row_bytes == std::uint64_t(w_.batch) * (reader ? reader->layer.in.c : 0);
    if (dram_.separate_memories() && chunkable[name] && vector_input && on_dma(reader) &&
        reader->tiling.split == ParallelMode::ModelCi) {
      // One position per image (an fc input, seed002 Example 1's I): cut along c by the
      // reader's shares, each piece in the memory of the core that reads it.
      runs.clear();
      for (std::size_t k = 0; k < reader->tiling.shares.size(); ++k)
        runs.emplace_back(reader->tiling.shares[k].second - reader->tiling.shares[k].first,
                          dram_.memory_of_cluster(reader->tiling.cores[k] / hw_.chip.cores_per_cluster));
      if (w_.batch == 1) return runs;
      runs = {{rows, 0}};
    }
    if (dram_.separate_memories() && chunkable[name] && runs.size() == 1) {
      if (data(reader) || (!data(producer) && on_dma(reader)))
        runs = row_runs(*reader, true);
      else if (on_dma(producer))
        runs = row_runs(*producer, false);
    }
    for (auto& run : runs) run.first *= row_bytes;
    return runs;
  };
  auto reader_of = [&](const std::string& name) { return first_reader.count(name) ? first_reader.at(name) : nullptr; };
  std::map<std::string, std::pair<int, DramTensor>> where;  // tensor -> (layer, DRAM)
  const std::uint64_t n = w_.batch;
  if (!w_.independent_layers) {
    network_input_ = dram_.allocate_runs(
        activation("input", nullptr, reader_of("input"), n * w_.input.h, std::uint64_t(w_.input.w) * w_.input.c));
    where["input"] = {-1, network_input_};
  }
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    CompiledLayer& c = layers_[i];
    const Layer& l = c.layer;
    if (w_.independent_layers) {
      c.inputs = {dram_.allocate_runs(activation(l.name + ".input", nullptr, &c, n * l.in.h, std::uint64_t(l.in.w) * l.in.c))};
      c.producers = {-1};
    }
    for (const auto& name : l.inputs) {
      c.inputs.push_back(where.at(name).second);
      c.producers.push_back(where.at(name).first);
    }
    // Input rows no output window touches (strided layers) never have to cross DRAM.
    const std::uint64_t rows_read = c.tiling.input_rows_read(l);
    c.input_bytes = l.kind == LayerKind::Matmul   ? n * (l.in.elements() + l.b_elements())
                    : l.kind == LayerKind::Concat ? n * l.out.elements()  // every input once
                                                  : n * rows_read * l.in.w * l.in.c * c.inputs.size();
    if (l.kind == LayerKind::Matmul && l.matmul().cached_rows > 0) {
      const std::uint64_t bytes = n * l.matmul().cached_rows * l.in_b.c;
      c.kv_cache = DramTensor{{{0, bytes, dram_.allocate(bytes)}}};
    }
    c.weight_bytes = l.kind == LayerKind::Depthwise || !l.has_weights()
                         ? (l.has_weights() ? std::uint64_t(c.tiling.kernel_h) * c.tiling.kernel_w * l.in.c : 0)
                         : std::uint64_t(l.out.c) * c.tiling.kernel_h * c.tiling.kernel_w * l.in.c;
    place_weights(c);
    if (i > 0) release_dead_tensors(i - 1);
    c.output = dram_.allocate_activation(
        activation(l.name, &c, reader_of(l.name), n * l.out.h, std::uint64_t(l.out.w) * l.out.c), c.overwrites);
    c.output_bytes = n * l.out.elements();
    if (c.tiling.on_sparse) {
      c.packed_weights_offset = dram_.allocate(PackedRegion::bytes(c.weight_bytes));
      packed_slot_bytes_ = std::max(packed_slot_bytes_, PackedRegion::bytes(c.tiling.sparse_band_elements));
    }
    where[l.name] = {int(i), c.output};
  }
  packed_slots_ = dram_.allocate(2 * std::uint64_t(hw.chip.cores()) * packed_slot_bytes_);
  place_exchange_slots(hw);
}

// Reusing DRAM: the outputs that layer `reader` was the last to read are dead.
void TraceEmitter::release_dead_tensors(std::size_t reader) {
  if (!dram_.reusing()) return;
  const auto& producers = layers_[reader].producers;
  for (std::size_t k = 0; k < producers.size(); ++k) {
    const int p = producers[k];
    const bool again = std::find(producers.begin(), producers.begin() + k, p) != producers.begin() + k;
    if (p >= 0 && !again && liveness_.outputs[std::size_t(p)].last_reader == std::int64_t(reader))
      dram_.release(layers_[std::size_t(p)].output, p);
  }
}

// Model-ci partial sums: two slots per core, in its cluster's cache when the output's
// tag stores them there and the layer's slots fit, else in DRAM in the core's
// cluster's memory (Example 2).
void TraceEmitter::place_exchange_slots(const HardwareConfig& hw) {
  bool through_dram = false;
  for (const auto& c : layers_)
    if (c.tiling.split == ParallelMode::ModelCi) {
      exchange_slot_bytes_ = std::max(exchange_slot_bytes_, c.tiling.acc_bytes);
      through_dram = through_dram || !partials_in_cache(c);
    }
  if (through_dram)
    for (std::uint32_t core = 0; core < hw.chip.cores(); ++core)
      exchange_slots_.push_back(
          dram_.allocate(2 * exchange_slot_bytes_, dram_.memory_of_cluster(core / hw.chip.cores_per_cluster)));
}

// The DRAM side of moving `rows` map rows (from map row `row`) of an NHWC tensor with
// `w` positions of `c` channels per row, channels [c0, c0 + cn) of each: one piece per
// chunk it spans (a window of wider rows is pitched), in the order `core` should move
// them, each with its offset in the dense NRAM copy. A tensor of one position per image
// may be cut along c (an fc input placed by its model-ci readers).
std::vector<TraceEmitter::WindowPiece> TraceEmitter::window_pieces(std::uint32_t core, const DramTensor& t,
                                                                   std::uint64_t row, std::uint64_t rows,
                                                                   std::uint32_t w, std::uint32_t c, std::uint32_t c0,
                                                                   std::uint32_t cn) const {
  const std::uint64_t row_bytes = std::uint64_t(w) * c, first = row * row_bytes;
  std::vector<WindowPiece> out;
  if (rows * w == 1) {
    for (const DramChunk& p : local_first(core, t.pieces(first + c0, first + c0 + cn)))
      out.push_back({p.address, p.first - first - c0, nhwc(1, 1, 1, p.bytes), 0, p.first == first + c0});
    return out;
  }
  for (const DramChunk& p : local_first(core, t.pieces(first, first + rows * row_bytes)))
    out.push_back({p.address + c0, (p.first - first) / row_bytes * w * cn, nhwc(1, p.bytes / row_bytes, w, cn),
                   cn != c ? c : 0, p.first == first});
  return out;
}

// The pieces of a band in the order a core should move them: from the first one in its
// own cluster's memory on, so that cores of different clusters that move the same band
// start on different memories instead of queueing on one.
std::vector<DramChunk> TraceEmitter::local_first(std::uint32_t core, std::vector<DramChunk> pieces) const {
  const std::uint32_t own = dram_.memory_of_cluster(core / hw_.chip.cores_per_cluster);
  auto local = std::find_if(pieces.begin(), pieces.end(),
                            [&](const DramChunk& p) { return dram_.memory_of(p.address) == own; });
  if (local != pieces.end()) std::rotate(pieces.begin(), local, pieces.end());
  return pieces;
}

// The weights go to the memory of every cluster whose cores run the layer, so every
// core reads them from its own memory (seed002 §3.10: constants are delivered to the
// local memory of the cores that use them, once, before the run). One copy when the
// memories are not separate.
void TraceEmitter::place_weights(CompiledLayer& c) {
  std::vector<bool> copy(dram_.memories(), false);
  if (!c.tiling.on_shader && !c.tiling.on_sparse)
    for (std::uint32_t core : c.tiling.cores) copy[dram_.memory_of_cluster(core / hw_.chip.cores_per_cluster)] = true;
  if (std::none_of(copy.begin(), copy.end(), [](bool b) { return b; })) copy[0] = true;
  c.weight_copies.assign(dram_.memories(), kNoCopy);
  for (std::uint32_t m = dram_.memories(); m-- > 0;)
    if (copy[m]) c.weights_offset = c.weight_copies[m] = dram_.allocate(c.weight_bytes, m);
}

std::uint64_t TraceEmitter::weights_at(std::uint32_t core) const {
  const CompiledLayer& c = layers_[layer_];
  const std::uint64_t local = c.weight_copies[dram_.memory_of_cluster(core / hw_.chip.cores_per_cluster)];
  return local != kNoCopy ? local : c.weights_offset;
}

// Load and store bytes to DRAM, by the cluster of the core and whether the channel is
// its cluster's own memory.
void TraceEmitter::count_dram(const Instruction& inst) {
  if (inst.op != "load" && inst.op != "store") return;
  const std::uint32_t cluster = inst.core / hw_.chip.cores_per_cluster;
  LayerTraffic& traffic = traffic_[layer_];
  for (const auto* list : {&inst.inputs, &inst.outputs})
    for (const TensorOperand& t : *list) {
      if (t.space != AddressSpace::Dram) continue;
      for_each_run(t, 0, t.bytes(), [&](std::uint64_t address, std::uint64_t, std::uint64_t count) {
        dram_.for_each_channel(address, count, [&](std::uint32_t channel, std::uint64_t n) {
          (home_cluster(hw_.chip, channel) == cluster ? traffic.dram_local : traffic.dram_remote)[cluster] += n;
        });
      });
    }
}

}  // namespace npusim
