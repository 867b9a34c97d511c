// Where a compiled workload's tensors go in DRAM (seed002 §3.4).
#include <algorithm>

#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/emit/RunLayout.h"

namespace npusim {
namespace {

using Runs = std::vector<std::pair<std::uint64_t, std::uint32_t>>;

// The layer is moved in bands by the load and store DMAs, so its activations may be cut
// into per-cluster runs and its weights copied to each of its clusters' memories.
bool moved_in_bands(const CompiledLayer* c) { return c && !lowering(c->tiling.engine).whole_tensors(); }
// Each core (data) or each cluster's cores (hybrid) take a run of bands of their own.
bool data_parallel(const CompiledLayer* c) { return moved_in_bands(c) && !is_pure_model(c->tiling.split); }

}  // namespace

// The map rows (images x height) a layer's cores read (`reading`) or write, as runs of
// (rows, memory of the cluster whose cores take them), in row order. Data mode deals
// bands in contiguous runs, so a cluster's rows start at its first core's first band
// (its first window's first input row when reading), and a hybrid mode deals them to
// each cluster's group of cores alike; model modes read every row on every core, so the
// rows are shared out evenly; model-ci's first core writes them all.
Runs EmitContext::row_runs(const CompiledLayer& c, bool reading, bool by_cluster) const {
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const std::uint64_t height = reading ? l.in.h : l.out.h, total = std::uint64_t(w_.batch) * height;
  const bool dealt = !is_pure_model(t.split);
  const std::uint64_t cores = dealt ? t.groups() : t.cores.size(), tiles = t.tiles(w_.batch);
  const std::uint64_t per = dealt && t.split != ParallelMode::Data ? t.group : 1;  // cores per run
  auto row_of = [&](std::uint64_t tile) -> std::uint64_t {
    if (tile >= tiles) return total;
    const auto band = t.band_tile(l, tile);
    return std::uint64_t(band.image) * height + (reading ? band.window.in_row0 : band.row0);
  };
  Runs runs;
  auto place_of = [&](std::uint32_t core) {
    const std::uint32_t cluster = core / hw_.chip.cores_per_cluster;
    return by_cluster ? cluster : dram_.memory_of_cluster(cluster);
  };
  if (!reading && t.split == ParallelMode::ModelCi) return {{total, place_of(t.cores.front())}};
  std::uint64_t done = 0;
  for (std::uint64_t k = 0; k < cores; ++k) {
    const std::uint64_t end = std::max(done, dealt ? row_of(tiles * (k + 1) / cores) : total * (k + 1) / cores);
    const std::uint32_t memory = place_of(t.cores[k * per]);
    if (!runs.empty() && runs.back().second == memory)
      runs.back().first += end - done;
    else
      runs.emplace_back(end - done, memory);
    done = end;
  }
  return runs;
}

// The DRAM traffic of layer `c` (none if null) to an activation of `rows` map rows of
// `row_bytes`, per cluster: data mode moves each cluster's run of bands; model modes
// move every row, each cluster its cores' shares of the channels, except that every
// cluster reads whole rows for model-co (its cores share one read of each band); the
// first core stores a model-ci layer's output.
std::vector<RowAccess> EmitContext::row_accesses(const CompiledLayer* c, bool reading, std::uint64_t rows,
                                                 std::uint64_t row_bytes) const {
  std::vector<RowAccess> out;
  if (!c) return out;
  const LayerTiling& t = c->tiling;
  const std::uint32_t per_cluster = hw_.chip.cores_per_cluster;
  if (!is_pure_model(t.split) || (!reading && t.split == ParallelMode::ModelCi)) {
    std::uint64_t row = 0;
    for (const auto& [n, memory] : row_runs(*c, reading)) out.push_back({row, row + n, row_bytes, memory}), row += n;
    return row == rows ? out : std::vector<RowAccess>{};
  }
  std::vector<std::uint64_t> width(dram_.memories(), 0);
  std::uint64_t total = 0;
  for (std::size_t k = 0; k < t.cores.size() && k < t.shares.size(); ++k) {
    const std::uint64_t w = t.shares[k].second - t.shares[k].first;
    width[dram_.memory_of_cluster(t.cores[k] / per_cluster)] += w, total += w;
  }
  const bool whole_rows = reading && t.split == ParallelMode::ModelCo;
  for (std::uint32_t m = 0; m < dram_.memories(); ++m)
    if (width[m] > 0) out.push_back({0, rows, whole_rows ? row_bytes : row_bytes * width[m] / total, m});
  return out;
}

// Per memory, how much of layer `c`'s weights its clusters' cores read: every weight per
// core in data mode, their share of the channels in model modes, every weight per
// cluster in hybrid modes (its cores' shares make the whole).
std::vector<double> EmitContext::weight_shares(const CompiledLayer& c) const {
  const LayerTiling& t = c.tiling;
  std::vector<double> share(dram_.memories(), 0);
  double total = 0;
  const double channels = splits_co(t.split) ? c.layer.out.c : c.layer.in.c;
  for (std::size_t k = 0; k < t.cores.size(); ++k) {
    const double width = k < t.shares.size() ? t.shares[k].second - t.shares[k].first : channels;
    const double w = t.split == ParallelMode::Data ? 1 : is_hybrid(t.split) ? width / channels : width;
    share[dram_.memory_of_cluster(t.cores[k] / hw_.chip.cores_per_cluster)] += w, total += w;
  }
  if (is_pure_model(t.split))
    for (double& s : share) s /= total;
  return share;
}

// Whether a model-mode layer's weights lie over every memory rather than in a copy per
// cluster: each block then streams from every channel at once, as on an SMP chip, not
// from its cluster's channel alone, which idles while that cluster computes. Chosen
// when the links carry the remote shares and stay less busy than the channels (the
// spread then costs no bandwidth): on numa-4x4 each of 6 links carries an eighth of
// the weights and each channel a quarter; numa-2x2's one link would carry as much as
// a channel, so there the copies stay local.
bool EmitContext::spreads_over_links(const CompiledLayer& c) const {
  const Layer& l = c.layer;
  if (!moved_in_bands(&c) || !is_pure_model(c.tiling.split) || dram_.memories() < 2 || !l.has_weights() ||
      l.kind == LayerKind::Depthwise || l.has_constant())
    return false;
  return links_less_busy(spread_load(weight_shares(c), dram_.memories()), fabric());
}

// The DRAM traffic of layer `c`'s weights (none if null) per channel and link: shared
// weights lie over every memory and every cluster of the layer takes every block (the
// lead's read or the fabric's copies), each memory serving one read of it; spread
// model-mode weights as spread_load; otherwise each cluster reads its own copy.
FabricLoad EmitContext::weight_load(const CompiledLayer* c) const {
  FabricLoad load(dram_.memories());
  if (!moved_in_bands(c) || !c->layer.has_weights()) return load;
  const double bytes = double(c->layer.weight_elements());
  std::vector<double> reads = weight_shares(*c);
  const bool shared = shares_weights(*c) && c->layer.kind != LayerKind::Depthwise;
  for (double& r : reads) r = shared ? (r > 0 ? bytes : 0) : r * bytes;
  if (!shared && !spreads_over_links(*c)) {
    for (std::uint32_t m = 0; m < dram_.memories(); ++m) load.add(m, m, reads[m]);
    return load;
  }
  load = spread_load(reads, dram_.memories());
  if (shared) load.channel.assign(dram_.memories(), bytes / dram_.memories());  // one read of each block
  return load;
}

FabricRates EmitContext::fabric() const {
  return {dram_.memories(), hw_.chip.dram.bytes_per_cycle, hw_.chip.interconnect.inter_cluster_link_bytes_per_cycle};
}

// One position per image (an fc input, seed002 Example 1's I) read by model-ci cores:
// cut along c by the reader's shares, each piece in the memory of the core that reads it.
Runs EmitContext::fc_input_runs(const CompiledLayer& reader) const {
  Runs runs;
  for (std::size_t k = 0; k < reader.tiling.shares.size(); ++k)
    runs.emplace_back(reader.tiling.shares[k].second - reader.tiling.shares[k].first,
                      dram_.memory_of_cluster(reader.tiling.cores[k] / hw_.chip.cores_per_cluster));
  return runs;
}

// The runs (bytes, memory) of an activation of `rows` map rows of `row_bytes`, written
// by `producer` (or none) and first read by `reader` (or none); `chunkable`: every layer
// that touches it moves it in bands.
Runs EmitContext::activation_runs(const CompiledLayer* producer, const CompiledLayer* reader, bool chunkable,
                                  std::uint64_t rows, std::uint64_t row_bytes) const {
  if (!dram_.separate_memories() || !chunkable) return {{rows * row_bytes, 0}};
  const bool vector_input = rows * row_bytes == std::uint64_t(w_.batch) * (reader ? reader->layer.in.c : 0);
  if (vector_input && moved_in_bands(reader) && reader->tiling.split == ParallelMode::ModelCi && w_.batch == 1)
    return fc_input_runs(*reader);
  // The first reader's runs come first when it is data parallel (or the producer is not),
  // so that a tie keeps each cluster's bands in its own memory for the read.
  std::vector<Runs> local;
  if (moved_in_bands(reader)) local.push_back(row_runs(*reader, true));
  if (moved_in_bands(producer)) local.push_back(row_runs(*producer, false));
  if (local.size() == 2 && !data_parallel(reader) && data_parallel(producer)) std::swap(local[0], local[1]);
  if (local.empty()) local.push_back({{rows, 0}});
  // An output no layer reads stays where its producer's cores write it: only its stores
  // could gain, and they overlap the layer's compute.
  Runs runs = moved_in_bands(reader) ? fastest_layout(local, row_accesses(producer, false, rows, row_bytes),
                                                      row_accesses(reader, true, rows, row_bytes), fabric(),
                                                      weight_load(producer), weight_load(reader))
                                     : local[0];
  for (auto& run : runs) run.first *= row_bytes;
  return runs;
}

// DRAM in workload order: the network input first, then per layer its input
// (independent layers only), weights and output, then the lowerings' own slots (by
// rank). On a chip with separate memories an activation is cut into the rows each
// cluster's cores take, each run in that cluster's memory (seed002 §3.4): by its first
// reader's bands when that reader is data parallel, else by its producer's; weights by
// place_weights. Lowerings with whole_tensors address their tensors as one region. When
// the DRAM is reused (DramPlacement), a layer's output may take the bytes of tensors
// whose last reader came before it.
void EmitContext::place_tensors() {
  make_states();
  caches_ = ClusterCachePlacement(hw_.chip, partial_sum_reserve());
  Placement p;
  p.chunkable = {{"input", true}};
  for (const auto& c : layers_) {
    p.chunkable[c.layer.name] = moved_in_bands(&c);
    for (const auto& name : c.layer.inputs) {
      const bool gate = c.layer.gated() && name == c.layer.inputs[1];  // one row per image: read whole
      p.chunkable[name] = p.chunkable[name] && moved_in_bands(&c) && !gate;
      p.first_reader.emplace(name, &c);
    }
  }
  if (!w_.independent_layers) {
    network_input_ = dram_.allocate_runs(activation_runs(nullptr, p.reader_of("input"), p.chunkable["input"],
                                                         std::uint64_t(w_.batch) * w_.input.h,
                                                         std::uint64_t(w_.input.w) * w_.input.c));
    p.where["input"] = {-1, network_input_};
  }
  for (std::size_t i = 0; i < layers_.size(); ++i) place_layer(i, p);
  for (const Lowering* l : lowerings()) l->place_workload(*this);
}

const CompiledLayer* EmitContext::Placement::reader_of(const std::string& name) const {
  const auto it = first_reader.find(name);
  return it == first_reader.end() ? nullptr : it->second;
}

void EmitContext::place_layer(std::size_t i, Placement& p) {
  CompiledLayer& c = layers_[i];
  const Layer& l = c.layer;
  const std::uint64_t n = w_.batch;
  if (w_.independent_layers) {  // a layer table's own input: placed for its reader, as any activation (NUMA)
    c.inputs = {dram_.allocate_runs(
        activation_runs(nullptr, &c, moved_in_bands(&c), n * l.in.h, std::uint64_t(l.in.w) * l.in.c))};
    c.producers = {-1};
  }
  for (const auto& name : l.inputs) {
    c.inputs.push_back(p.where.at(name).second);
    c.producers.push_back(p.where.at(name).first);
  }
  // Input rows no output window touches (strided layers) never have to cross DRAM.
  const std::uint64_t rows_read = c.tiling.input_rows_read(l);
  c.input_bytes = l.kind == LayerKind::Matmul   ? n * (l.in.elements() + l.b_elements())
                  : l.kind == LayerKind::Concat || l.kind == LayerKind::GatherChannels ? n * l.out.elements()
                  : l.kind == LayerKind::ConcatTokens ? n * l.in.elements()  // beside the constant's rows
                  : l.gated()                   ? n * (rows_read * l.in.w * l.in.c + l.in.c)
                                                : n * rows_read * l.in.w * l.in.c * c.inputs.size();
  if (l.kind == LayerKind::Matmul && l.matmul().cached_rows > 0) {
    const std::uint64_t bytes = n * l.matmul().cached_rows * l.in_b.c;
    c.kv_cache = DramTensor{{{0, bytes, dram_.allocate(bytes), std::nullopt}}};
  }
  c.weight_bytes = l.kind == LayerKind::Depthwise || !l.has_weights()
                       ? (l.has_weights() ? std::uint64_t(c.tiling.kernel_h) * c.tiling.kernel_w * l.in.c : 0)
                       : std::uint64_t(l.out.c) * c.tiling.kernel_h * c.tiling.kernel_w * (l.in.c / l.groups);
  if (l.has_constant()) c.weight_bytes = l.weight_elements();  // one image's constant (or a table), for every image
  place_weights(c, i);
  if (i > 0) release_dead_tensors(i - 1);
  if (auto kept = kept_in_caches(c, p))
    c.output = std::move(*kept);
  else
    c.output = dram_.allocate_activation(activation_runs(&c, p.reader_of(l.name), p.chunkable[l.name], n * l.out.h,
                                                         std::uint64_t(l.out.w) * l.out.c),
                                         c.overwrites);
  c.output_bytes = n * l.out.elements();
  lowering(c.tiling.engine).place_layer(*this, c);
  p.where[l.name] = {int(i), c.output};
}

// Reusing DRAM: the outputs that layer `reader` was the last to read are dead.
void EmitContext::release_dead_tensors(std::size_t reader) {
  if (!dram_.reusing()) return;
  const auto& producers = layers_[reader].producers;
  for (std::size_t k = 0; k < producers.size(); ++k) {
    const int p = producers[k];
    const bool again = std::find(producers.begin(), producers.begin() + k, p) != producers.begin() + k;
    const CompiledLayer& dead = layers_[std::size_t(p < 0 ? 0 : p)];
    if (p >= 0 && !again && dead.last_reader == std::int64_t(reader) && !dead.output.in_caches())
      dram_.release(dead.output, p);
  }
}

// The weights go to the memory of every cluster whose cores run the layer, so every
// core reads them from its own memory (seed002 §3.10: constants are delivered to the
// local memory of the cores that use them, once, before the run). One copy when the
// memories are not separate, or when the cores share one read of each block
// (SharedReads.cpp): then the layers' copies take the memories in turn, so that the
// channels share the weight traffic.
void EmitContext::place_weights(CompiledLayer& c, std::size_t index) {
  if ((shares_weights(c) || spreads_over_links(c)) && spread_weights(c, index)) return;
  std::vector<bool> copy(dram_.memories(), false);
  if (shares_weights(c))
    copy[index % dram_.memories()] = true;
  else if (moved_in_bands(&c))
    for (std::uint32_t core : c.tiling.cores) copy[dram_.memory_of_cluster(core / hw_.chip.cores_per_cluster)] = true;
  if (std::none_of(copy.begin(), copy.end(), [](bool b) { return b; })) copy[0] = true;
  c.weight_copies.assign(dram_.memories(), kNoCopy);
  for (std::uint32_t m = dram_.memories(); m-- > 0;)
    if (copy[m]) c.weights_offset = c.weight_copies[m] = dram_.allocate(c.weight_bytes, m);
}

// Shared weights on a chip of separate memories (NUMA): one copy, whole output channels
// dealt to every memory in turn, a weight block's share of each together, so that the
// read of every block streams from all channels at once, as the interleaved channels of
// an SMP chip would serve it (the copies then reach each cluster over the links). The
// layer's first memory turns with `index`. Not for depthwise weights (one block of every
// channel, small); false when not spread.
bool EmitContext::spread_weights(CompiledLayer& c, std::size_t index) {
  const Layer& l = c.layer;
  const std::uint32_t memories = dram_.memories();
  if (memories == 1 || l.kind == LayerKind::Depthwise || l.has_constant() || l.out.c == 0) return false;
  const std::uint64_t per_co = c.weight_bytes / l.out.c;
  const std::uint32_t run = std::max<std::uint32_t>(1, (std::min(c.tiling.co_block, l.out.c) + memories - 1) / memories);
  Runs runs;
  for (std::uint32_t co = 0, k = 0; co < l.out.c; co += run, ++k)
    runs.emplace_back(std::uint64_t(std::min(run, l.out.c - co)) * per_co, std::uint32_t((index + k) % memories));
  c.spread_weights = dram_.allocate_runs(runs);
  c.weights_offset = c.spread_weights.address();
  c.weight_copies.assign(memories, kNoCopy);
  return true;
}

// Model-ci partial sums take the bottom of each cache (PartialSumReduction.cpp: two slots
// of a layer's int32 sums per core of the cluster) where they fit it.
std::uint64_t EmitContext::partial_sum_reserve() const {
  std::uint64_t most = 0;
  const std::uint64_t per_cluster = 2 * std::uint64_t(hw_.chip.cores_per_cluster);
  for (const auto& c : layers_)
    if (splits_ci(c.tiling.split) && per_cluster * c.tiling.acc_bytes <= hw_.chip.cluster_cache.capacity_bytes)
      most = std::max(most, per_cluster * c.tiling.acc_bytes);
  return most;
}

// seed002 ¶202-207: the reader's tag for the tensor names `cluster` storage (its rows cut
// between cores); the layer and every reader move it in bands; it is read by a later layer
// (a network output goes back to DRAM for the host, §1.1). Each cluster's cache keeps the
// rows its cores write.
std::optional<DramTensor> EmitContext::kept_in_caches(const CompiledLayer& c, Placement& p) {
  const Layer& l = c.layer;
  const CompiledLayer* reader = p.reader_of(l.name);
  if (!hw_.chip.cluster_cache.enabled || c.output_readers == 0 || !reader || !p.chunkable[l.name]) return std::nullopt;
  const LayerSplit& s = reader->split;
  bool cluster = false;
  for (std::size_t i = 0; i < s.tags.size(); ++i)
    if (s.tag_names[i] == l.name && s.tags[i].dynamic.store)
      cluster = s.tags[i].dynamic.store->level == StorageId::Level::ClusterCache;
  if (!cluster) return std::nullopt;
  const std::uint64_t row_bytes = std::uint64_t(l.out.w) * l.out.c;
  Runs runs = row_runs(c, false, true);
  std::uint64_t rows = 0;
  for (auto& run : runs) rows += run.first, run.first *= row_bytes;
  if (rows != std::uint64_t(w_.batch) * l.out.h) return std::nullopt;
  return caches_.allocate(runs);
}

}  // namespace npusim
