#include "apps/compiler/TraceEmitter.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "apps/compiler/emit/TraceOperands.h"
#include "models/dma/DmaConfig.h"
#include "sim/common/InputError.h"
#include "sim/tensor/Npy.h"
#include "sim/trace/OpCatalog.h"

namespace npusim {

namespace {

// Weights as the units read them: the kernel after dilation (zero taps between real ones).
std::vector<std::uint64_t> weight_shape(const Layer& l, const LayerTiling& t, std::uint32_t co, std::uint32_t ci) {
  if (l.kind == LayerKind::Depthwise) return {t.kernel_h, t.kernel_w, l.in.c};
  return {co, t.kernel_h, t.kernel_w, ci};
}

// Weights as the workload gives them (.npy): the dense kernel.
std::vector<std::uint64_t> dense_weight_shape(const Layer& l) {
  if (l.kind == LayerKind::Depthwise) return {l.kh, l.kw, l.in.c};
  return {l.out.c, l.kh, l.kw, l.in.c};
}

}  // namespace

TraceEmitter::TraceEmitter(const Workload& workload, const HardwareConfig& hw, const SplitOptions& split)
    : w_(workload), hw_(hw), dram_(hw.chip) {
  plan(hw, split);
  add_bindings();
  cores_.resize(hw.chip.cores());
  for (std::uint32_t k = 0; k < cores_.size(); ++k)
    if (hw.core_of(k).blocks.has("store_dma"))
      cores_[k].store_slots = hw.core_of(k).block<DmaConfig>("store_dma").max_outstanding;
  final_stores_.assign(layers_.size(), {});
  writes_.resize(layers_.size());
  reads_.resize(layers_.size());
}

// Chooses how each layer's cores share it and tiles it so, then places the tensors in DRAM.
void TraceEmitter::plan(const HardwareConfig& hw, const SplitOptions& split) {
  const SplitPlanner planner(w_, hw, split);
  liveness_ = tensor_liveness(w_);
  for (std::size_t i = 0; i < w_.layers.size(); ++i) {
    const Layer& l = w_.layers[i];
    CompiledLayer c;
    c.layer = l;
    std::tie(c.tiling, c.split) = planner.plan(l, liveness_.outputs[i].readers, i);
    layers_.push_back(std::move(c));
  }
  traffic_.resize(layers_.size());
  for (auto& t : traffic_) t.dram_local.assign(hw.chip.clusters, 0), t.dram_remote.assign(hw.chip.clusters, 0);
  place_tensors(hw);
  if (!dram_.fits()) {  // a region per tensor is too much: place again, dead tensors' DRAM reused
    forget_placement();
    dram_.reuse_dead_tensors();
    place_tensors(hw);
  }
  dram_.check_capacity(w_.file);
  plan_overwrites();
}

void TraceEmitter::forget_placement() {
  for (auto& c : layers_) {
    c.inputs.clear();
    c.producers.clear();
    c.overwrites.clear();
    c.kv_cache = {};
  }
  packed_slot_bytes_ = exchange_slot_bytes_ = 0;
  exchange_slots_.clear();
}

// How long the emitter keeps the writers and readers of each output: while it is read,
// and while a later output that takes its DRAM has yet to be written.
void TraceEmitter::plan_overwrites() {
  keep_until_.resize(layers_.size());
  for (std::size_t i = 0; i < layers_.size(); ++i) keep_until_[i] = liveness_.outputs[i].last_reader;
  for (std::size_t i = 0; i < layers_.size(); ++i)
    for (int dead : layers_[i].overwrites) keep_until_[std::size_t(dead)] = std::max(keep_until_[std::size_t(dead)], std::int64_t(i));
}

void TraceEmitter::add_bindings() {
  const std::string dir = std::filesystem::path(w_.file).parent_path().string();
  auto resolve = [&](const std::string& f) { return f.empty() || dir.empty() ? f : (std::filesystem::path(dir) / f).string(); };
  std::uint64_t seed = w_.seed;
  auto place = [](DataBinding& b, const DramTensor& t) {
    b.region = tensor(AddressSpace::Dram, t.address(), {}, DType::Int8);
    if (t.chunks.size() > 1)
      for (const auto& chunk : t.chunks) b.chunks.push_back({chunk.address, chunk.bytes});
  };
  // An input binding fed by a .npy file (checked here) or by generated data;
  // `dilation` spreads a kernel's taps in memory (the data stays dense). `copies` are
  // further places the same data goes to (weights in every cluster's memory); only the
  // first is dumped.
  auto bind_input = [&](const std::string& name, const DramTensor& at, std::vector<std::uint64_t> shape,
                        const std::string& file, KernelDilation dilation, double zeros,
                        const std::vector<std::uint64_t>& copies = {},
                        const std::shared_ptr<const std::vector<std::int8_t>>& values = nullptr) {
    DataBinding b;
    b.name = name;
    place(b, at);
    b.dilation = dilation;
    b.set_shape(shape);
    if (values) {
      b.values = values;  // the workload's own data: no seed is drawn for it
    } else if (file.empty()) {
      b.random_seed = seed++;
      if (zeros > 0) b.zero_fraction = zeros;
    } else {
      b.file = file;
      b.file_path = resolve(file);
      NpyHeader h = read_npy_header(b.file_path);
      if (h.dtype != DType::Int8 || h.shape != shape)
        throw InputError(w_.file, name, fmt::format("{} must be int8 with shape [{}]", file, fmt::join(shape, ", ")));
    }
    header_.inputs.push_back(b);
    header_.outputs.push_back(b);  // dumped too, so results can be checked without npusim
    header_.outputs.back().file.clear();
    header_.outputs.back().random_seed.reset();
    header_.outputs.back().zero_fraction.reset();
    header_.outputs.back().values.reset();
    for (std::uint64_t address : copies) {
      DataBinding copy = b;
      copy.name = fmt::format("{}.mem{}", name, dram_.memory_of(address) + 1);
      copy.region.offset = address;
      header_.inputs.push_back(copy);
    }
  };
  const std::uint64_t n = w_.batch;
  if (!w_.independent_layers) {
    // The network input gets the zero fraction its first reader declares.
    double zeros = 0;
    for (const auto& l : w_.layers)
      if (std::find(l.inputs.begin(), l.inputs.end(), "input") != l.inputs.end()) {
        zeros = l.activation_sparsity;
        break;
      }
    bind_input("input", network_input_, nhwc(n, w_.input.h, w_.input.w, w_.input.c), w_.input_file, {1, 1}, zeros);
  }
  for (const auto& c : layers_) {
    const Layer& l = c.layer;
    if (w_.independent_layers)
      bind_input(l.name + ".input", c.inputs[0], nhwc(n, l.in.h, l.in.w, l.in.c), "", {1, 1}, l.activation_sparsity);
    if (l.has_weights()) {
      std::vector<std::uint64_t> copies;
      for (std::uint64_t address : c.weight_copies)
        if (address != kNoCopy && address != c.weights_offset) copies.push_back(address);
      bind_input(l.name + ".weights", DramTensor{{{0, c.weight_bytes, c.weights_offset}}}, dense_weight_shape(l),
                 l.weights_file, {l.dilation, l.dilation}, l.weight_sparsity, copies, l.weight_values);
    }
    if (!c.kv_cache.chunks.empty())  // keys or values of earlier tokens: generated like weights
      bind_input(l.name + ".kv_cache", c.kv_cache, nhwc(n, l.matmul().cached_rows, 1, l.in_b.c), "", {1, 1}, 0);
    // Reused DRAM holds at the end only the tensors nothing read: the network's outputs.
    if (dram_.reusing() && liveness_.outputs[std::size_t(&c - layers_.data())].readers > 0) continue;
    DataBinding out;
    out.name = l.name;
    place(out, c.output);
    out.set_shape(nhwc(n, l.out.h, l.out.w, l.out.c));
    header_.outputs.push_back(out);
  }
}

std::size_t TraceEmitter::layer_of(std::uint64_t id) const {
  auto it = std::upper_bound(first_ids_.begin(), first_ids_.end(), id);
  return std::size_t(it - first_ids_.begin()) - 1;
}

std::uint64_t TraceEmitter::push(Instruction inst) {
  inst.id = next_id_++;
  count_dram(inst);
  // A compiler bug, not bad input: the tiler laid two regions over each other.
  if (auto problem = operand_overlap(inst))
    throw std::logic_error(fmt::format("compiler: {} instruction {} of layer '{}': {}: {}", inst.op, inst.id,
                                       layers_[layer_].layer.name, problem->field, problem->reason));
  pending_.push_back(std::move(inst));
  return pending_.back().id;
}

bool TraceEmitter::next(Instruction& out) {
  while (pending_.empty()) {
    if (layer_ >= layers_.size()) return false;
    if (!layer_started_) start_layer();
    emit_step();
  }
  out = std::move(pending_.front());
  pending_.pop_front();
  return true;
}

// Deals the layer's tiles (image-major bands) to its cores in contiguous runs.
void TraceEmitter::start_layer() {
  const CompiledLayer& c = layers_[layer_];
  const std::uint64_t tiles = c.tiling.on_shader ? c.tiling.shader_plan.tiles.size() : c.tiling.tiles(w_.batch);
  const auto& cores = c.tiling.cores;
  const std::uint64_t count = cores.size();
  steps_ = 0;
  for (auto& cs : cores_) cs.first_tile = cs.end_tile = 0;
  const bool data = c.tiling.split == ParallelMode::Data;
  // Model-co: every core reads every band; the cores of the i-th of the layer's clusters
  // start at band tiles * i / clusters, which lies in their own memory (the rows are
  // placed by cluster), so the clusters read different memories at the same time.
  std::vector<std::uint32_t> clusters;
  for (std::uint32_t core : cores)
    if (clusters.empty() || clusters.back() != core / hw_.chip.cores_per_cluster)
      clusters.push_back(core / hw_.chip.cores_per_cluster);
  for (std::uint64_t k = 0; k < count; ++k) {
    CoreState& cs = cores_[cores[k]];
    cs.first_tile = data ? tiles * k / count : 0;
    cs.end_tile = data ? tiles * (k + 1) / count : tiles;
    cs.share = std::size_t(k);
    const auto position = std::find(clusters.begin(), clusters.end(), cores[k] / hw_.chip.cores_per_cluster);
    cs.rotation = c.tiling.split == ParallelMode::ModelCo && dram_.separate_memories()
                      ? tiles * std::uint64_t(position - clusters.begin()) / clusters.size()
                      : 0;
    cs.emitted = 0;
    cs.b_run = -1;
    cs.loaded_ifmap = false;
    cs.wrote_output = false;
    for (auto& g : cs.groups) {
      g.fresh = true;
      g.filter_block = -1;  // another layer's filters
    }
    steps_ = std::max(steps_, cs.end_tile - cs.first_tile);
  }
  first_ids_.push_back(next_id_);
  exchange_in_cache_ = partials_in_cache(c);
  // Cache slots are laid out by each layer's sums; when that changes, a core's first
  // store waits for every earlier read of its cluster's slots.
  if (exchange_in_cache_ && c.tiling.acc_bytes != cache_slot_bytes_) {
    cache_slot_bytes_ = c.tiling.acc_bytes;
    for (std::uint32_t core = 0; core < cores_.size(); ++core) {
      std::vector<std::int64_t>& fence = cores_[core].cache_fence;
      fence.clear();
      for (std::uint32_t other = 0; other < cores_.size(); ++other)
        if (other / hw_.chip.cores_per_cluster == core / hw_.chip.cores_per_cluster)
          for (std::int64_t id : cores_[other].exchange_reader) fence.push_back(id);
    }
  }
  block_ = 0;
  step_ = 0;
  layer_started_ = true;
}

// One band on every core that has one, interleaved so that no core waits on the
// controller while another core's queue is full.
void TraceEmitter::emit_step() {
  const CompiledLayer& c = layers_[layer_];
  for (std::uint32_t k : c.tiling.cores) {
    CoreState& cs = cores_[k];
    if (cs.first_tile + step_ >= cs.end_tile) continue;
    const std::uint64_t tile = cs.first_tile + (step_ + cs.rotation) % (cs.end_tile - cs.first_tile);
    if (c.tiling.on_shader) {
      if (step_ == 0) emit_shader_setup(k);
      emit_shader_tile(k, cs, tile);
      continue;
    }
    if (c.tiling.on_sparse) {
      if (step_ == 0 && k == c.tiling.cores.front()) emit_sparse_weights(k);
      emit_sparse_tile(k, cs, tile);
      continue;
    }
    if (c.layer.kind == LayerKind::Concat) {
      emit_concat_tile(k, cs, tile);
      continue;
    }
    if (c.layer.kind == LayerKind::Matmul) {
      if (std::int64_t(tile / c.tiling.bands) != cs.b_run) emit_matmul_weights(k, cs, tile);
      emit_tile(k, cs, tile);
      continue;
    }
    if (c.tiling.core_block(c.layer, cs.share, block_).second == 0) continue;  // its co share has no such block
    if (step_ == 0 && (c.tiling.on_matrix_unit || (block_ == 0 && c.layer.kind == LayerKind::Depthwise)))
      emit_weights(k, cs);
    emit_tile(k, cs, tile);
  }
  if (c.tiling.split == ParallelMode::ModelCi) emit_reduction(step_);
  if (++step_ < steps_) return;
  step_ = 0;
  // A matmul's co blocks are runs of its tiles (LayerTiling::runs_per_image).
  if (c.layer.kind != LayerKind::Matmul && ++block_ < c.tiling.co_blocks) return;
  for (std::uint32_t k = 0; k < cores_.size(); ++k) {
    const CoreState& cs = cores_[k];
    if (cs.end_tile <= cs.first_tile) continue;
    std::vector<std::int64_t>& finals = final_stores_[layer_];
    finals.insert(finals.end(), cs.unretired_stores.begin(), cs.unretired_stores.end());
    if (cs.unretired_stores.empty() || cs.unretired_stores.back() != cs.last_store) finals.push_back(cs.last_store);
  }
  finish_writes();
  ++layer_;
  layer_started_ = false;
}

void TraceEmitter::emit_weights(std::uint32_t core, CoreState& cs) {
  const CompiledLayer& c = layers_[layer_];
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const auto [first_co, count] = t.core_block(l, cs.share, block_);
  const auto [first_ci, ci] = t.core_channels_in(l, cs.share);
  const std::uint64_t per_co = std::uint64_t(t.kernel_h) * t.kernel_w * l.in.c;  // in DRAM
  const std::uint64_t per_co_loaded = std::uint64_t(t.kernel_h) * t.kernel_w * ci;
  TensorOperand to;
  std::vector<std::int64_t> readers;  // what must have read the destination first
  if (l.kind == LayerKind::Depthwise) {
    // Depthwise weights sit in the NRAM region in front of the band slots.
    to = tensor(AddressSpace::Nram, 0, {}, DType::Int8);
    readers = {cs.last_store};
  } else {
    to = next_wram_block(cs, readers);
  }
  // One load per DRAM run of the block; a ci share is a window of every kernel row:
  // rows of `ci` bytes, `in.c` apart.
  const std::uint64_t begin = first_co * per_co;
  const std::uint64_t end = l.kind == LayerKind::Depthwise ? c.weight_bytes : begin + count * per_co;
  const DramTensor weights{{{0, c.weight_bytes, weights_at(core)}}};
  for (const DramChunk& piece : weights.pieces(begin, end)) {
    const std::uint32_t rows = l.kind == LayerKind::Depthwise ? count : std::uint32_t(piece.bytes / per_co);
    const auto shape = weight_shape(l, t, rows, ci);
    Instruction load = make("load", "load", core);
    load.inputs = {tensor(AddressSpace::Dram, piece.address + first_ci, shape, DType::Int8)};
    if (ci != l.in.c && l.kind != LayerKind::Depthwise) load.inputs[0].pitch = l.in.c;
    load.outputs = {to};
    load.outputs[0].offset += (piece.first - begin) / per_co * per_co_loaded;
    load.outputs[0].shape = shape;
    for (std::int64_t id : readers) depend(load, id);
    cs.weights = std::int64_t(push(std::move(load)));
  }
}

TensorOperand TraceEmitter::next_wram_block(CoreState& cs, std::vector<std::int64_t>& readers) {
  const LayerTiling& t = layers_[layer_].tiling;
  const std::uint64_t half = t.kind(hw_).wram.capacity_bytes / 2;
  cs.block_half = t.weights_in_half ? cs.wram_half : 2;
  if (t.weights_in_half) cs.wram_half ^= 1;
  for (std::uint32_t h = 0; h < 2; ++h)
    if (cs.block_half == 2 || cs.block_half == h) readers.push_back(cs.wram_reader[h]);
  return tensor(AddressSpace::Wram, cs.block_half == 1 ? half : 0, {}, DType::Int8);
}

// B's rows [r0, r1) (cache rows first), channels [c0, c0 + cn) of each, packed into WRAM:
// [n, k] when transposed (a block of keys), [k, n] otherwise (a block of value columns,
// which the conv reads as transposed weights).
void TraceEmitter::emit_matmul_weights(std::uint32_t core, CoreState& cs, std::uint64_t tile) {
  const CompiledLayer& c = layers_[layer_];
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const MatmulShape s = l.matmul();
  const auto block = t.matmul_block(l, tile);
  const std::uint32_t image = t.band_tile(l, tile).image;
  const std::uint32_t r0 = l.transpose_b ? block.first : 0, r1 = l.transpose_b ? block.first + block.count : s.k;
  const std::uint32_t c0 = l.transpose_b ? block.head * s.k : block.head * s.n + block.first;
  const std::uint32_t cn = l.transpose_b ? s.k : block.count;
  std::vector<std::int64_t> readers;
  const TensorOperand to = next_wram_block(cs, readers);
  std::uint64_t packed = 0;  // bytes of the block loaded so far
  // `produced`: rows of the producer's tensor (else of the KV cache, in DRAM before the run).
  auto load_rows = [&](const DramTensor& from, std::uint64_t row, std::uint32_t rows, bool produced) {
    for (const WindowPiece& piece : window_pieces(core, from, row, rows, 1, l.in_b.c, c0, cn)) {
      Instruction load = make("load", "load", core);
      load.inputs = {tensor(AddressSpace::Dram, piece.address, piece.shape, DType::Int8)};
      load.inputs[0].pitch = piece.pitch;
      load.outputs = {to};
      load.outputs[0].offset += packed + piece.offset;
      load.outputs[0].shape = piece.shape;
      for (std::int64_t id : readers) depend(load, id);
      wait_for_producers(load);
      if (produced) wait_for_writers(load, {1, row * l.in_b.c, (row + rows) * l.in_b.c});
      cs.weights = std::int64_t(push(std::move(load)));
      if (produced) record_read(std::uint64_t(cs.weights), 1);
    }
    packed += std::uint64_t(rows) * cn;
  };
  if (r0 < s.cached_rows)
    load_rows(c.kv_cache, std::uint64_t(image) * s.cached_rows + r0, std::min(r1, s.cached_rows) - r0, false);
  if (r1 > s.cached_rows) {
    const std::uint32_t from = std::max(r0, s.cached_rows) - s.cached_rows;
    load_rows(c.inputs[1], std::uint64_t(image) * s.b_rows + from, r1 - s.cached_rows - from, true);
  }
  cs.b_run = std::int64_t(tile / t.bands);
}

void TraceEmitter::emit_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile) {
  const CompiledLayer& c = layers_[layer_];
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const bool matmul = l.kind == LayerKind::Matmul;
  const auto [image, row0, rows, band] = t.band_tile(l, tile);
  auto [first_co, co] = t.core_block(l, cs.share, block_);
  auto [first_ci, ci] = t.core_channels_in(l, cs.share);
  if (matmul) {  // A's head segment times the head's block of B, into the head's output segment
    const auto block = t.matmul_block(l, tile);
    first_ci = block.head * t.ci;
    ci = t.ci;
    first_co = block.head * t.co + block.first;
    co = block.count;
  }
  const std::size_t band_inputs = matmul ? 1 : c.inputs.size();  // B came in as weights
  const std::uint32_t slot = std::uint32_t(cs.emitted++ % t.buffers);
  const std::uint64_t base = t.fixed_bytes + slot * t.slot_bytes;
  const std::uint64_t acc_at = base + t.in_bytes * band_inputs, out_at = acc_at + t.acc_bytes;

  // Loads of the input band(s), one per DRAM chunk it spans (a ci share: rows of `ci`
  // bytes, `in.c` apart); the first waits for the producers and for this core's NRAM.
  const bool multiplies = l.kind == LayerKind::Conv || l.kind == LayerKind::Fc || matmul;
  BandWriters loads;
  for (std::size_t i = 0; i < band_inputs; ++i) {
    const std::uint64_t row = std::uint64_t(image) * l.in.h + band.in_row0;
    // A band the matrix unit takes as one row is read whole by its first tile.
    const std::uint64_t row_bytes = std::uint64_t(l.in.w) * l.in.c;
    emit_band_loads(core, cs, window_pieces(core, c.inputs[i], row, band.in_rows, l.in.w, l.in.c, first_ci, ci),
                    base + i * t.in_bytes, cs.in_reader[slot], !(multiplies && positions_in_one_row(l)),
                    {i, row * row_bytes, (row + band.in_rows) * row_bytes}, loads);
  }
  cs.loaded_ifmap = true;

  const auto out_shape = multiplies ? matrix_band_shape(l, rows, l.out.w, co) : nhwc(1, rows, l.out.w, co);
  const std::vector<std::uint64_t> pad = {band.pad_top, band.pad_bottom, l.pad[2], l.pad[3]};
  const std::vector<std::uint64_t> stride = {l.sh, l.sw};
  // int32 accumulators go through NRAM to the vector unit's requant, unless the matrix unit
  // requantizes on its result path.
  const bool accumulates = (l.has_weights() || matmul) && !t.requantize_on_result_path;
  Instruction op = make("conv", "matrix", core);
  for (std::size_t i = 0; i < band_inputs; ++i)
    op.inputs.push_back(tensor(AddressSpace::Nram, base + i * t.in_bytes,
                               multiplies ? matrix_band_shape(l, band.in_rows, l.in.w, ci)
                                          : nhwc(1, band.in_rows, l.in.w, ci),
                               DType::Int8));
  // Staged granules count from the start of the producer's output, so only a load that
  // starts the band may release the compute row by row.
  for (const auto& [id, mode] : loads) depend(op, std::int64_t(id), mode);
  if (multiplies) {
    const std::uint64_t wram_at = cs.block_half == 1 ? t.kind(hw_).wram.capacity_bytes / 2 : 0;
    const bool transposed = matmul && !l.transpose_b;  // B's block is [k, n] as stored
    op.inputs.push_back(tensor(AddressSpace::Wram, wram_at,
                               transposed ? std::vector<std::uint64_t>{ci, 1, 1, co} : weight_shape(l, t, co, ci),
                               DType::Int8));
    op.params = {{"stride", stride}, {"padding", pad}};
    if (transposed) op.params["transposed_weights"] = true;
    if (t.requantize_on_result_path) {
      op.params["shift"] = l.shift;
      op.params["relu"] = l.relu;
    }
  } else if (l.kind == LayerKind::Depthwise) {
    op.op = "dwconv";
    op.engine = "vector";
    op.inputs.push_back(tensor(AddressSpace::Nram, 0, weight_shape(l, t, co, ci), DType::Int8));
    op.params = {{"stride", stride}, {"padding", pad}};
  } else if (l.kind == LayerKind::Pool) {
    op.op = "pool";
    op.engine = "vector";
    op.params = {{"kernel", {l.kh, l.kw}}, {"stride", stride}, {"padding", pad}, {"mode", l.pool_max ? "max" : "avg"}};
  } else if (l.is_row_op()) {
    op.op = layer_kind_name(l.kind);
    op.engine = "vector";
    if (l.kind == LayerKind::Softmax) op.params["segment"] = l.in.c / l.heads;
    if (l.kind != LayerKind::LayerNorm) op.params["frac_bits"] = l.frac_bits;
  } else {
    op.op = l.kind == LayerKind::Add ? "add" : "relu";
    op.engine = "vector";
  }
  if (l.has_weights() || matmul) depend(op, cs.weights);
  if (accumulates) {
    depend(op, cs.acc_reader[slot]);
    op.outputs = {tensor(AddressSpace::Nram, acc_at, out_shape, DType::Int32)};
  } else {
    depend(op, cs.out_reader[slot]);
    op.outputs = {tensor(AddressSpace::Nram, out_at, out_shape, DType::Int8)};
  }
  const std::uint64_t compute = push(std::move(op));
  cs.in_reader[slot] = std::int64_t(compute);
  if (multiplies)
    for (std::uint32_t h = 0; h < 2; ++h)
      if (cs.block_half == 2 || cs.block_half == h) cs.wram_reader[h] = std::int64_t(compute);
  if (t.split == ParallelMode::ModelCi) {  // partial sums: emit_reduction takes it from here
    cs.acc_writer = std::int64_t(compute);
    return;
  }

  std::uint64_t result = compute;
  if (accumulates || (l.kind == LayerKind::Add && l.relu)) {
    // int32 -> int8 (with the layer's ReLU); an add with ReLU clamps in place.
    Instruction post = make(accumulates ? "requant" : "relu", "vector", core);
    post.inputs = {tensor(AddressSpace::Nram, accumulates ? acc_at : out_at, out_shape, accumulates ? DType::Int32 : DType::Int8)};
    post.outputs = {tensor(AddressSpace::Nram, out_at, out_shape, DType::Int8)};
    if (accumulates) post.params = {{"shift", l.shift}, {"relu", l.relu}};
    depend(post, std::int64_t(compute), DependencyMode::Staged);
    depend(post, cs.out_reader[slot]);
    result = push(std::move(post));
    if (accumulates) cs.acc_reader[slot] = std::int64_t(result);
  }

  emit_band_store(core, cs, {{result, DependencyMode::Staged}}, out_at, slot, tile, first_co, co);
}

void TraceEmitter::emit_band_loads(std::uint32_t core, CoreState& cs, const std::vector<WindowPiece>& pieces,
                                   std::uint64_t at, std::int64_t reader, bool row_by_row, const InputBytes& bytes,
                                   BandWriters& loads) {
  for (const WindowPiece& piece : pieces) {
    Instruction load = make("load", "load", core);
    load.inputs = {tensor(AddressSpace::Dram, piece.address, piece.shape, DType::Int8)};
    load.inputs[0].pitch = piece.pitch;
    load.outputs = {tensor(AddressSpace::Nram, at + piece.offset, piece.shape, DType::Int8)};
    depend(load, reader);
    if (!cs.loaded_ifmap) {
      depend(load, cs.last_store);
      wait_for_producers(load);
    }
    wait_for_writers(load, bytes);
    const bool staged = piece.starts && row_by_row;
    loads.emplace_back(push(std::move(load)), staged ? DependencyMode::Staged : DependencyMode::Full);
    record_read(loads.back().first, bytes.input);
  }
}

// All of the band's loads first, so that none waits behind a store. Each input's stores
// start once the one before has read its NRAM bytes (two-phase), so the band's last
// store finishing frees the whole slot (the next loads into it wait for that one).
void TraceEmitter::emit_concat_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile) {
  const CompiledLayer& c = layers_[layer_];
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const auto band = t.band_tile(l, tile);
  const std::uint32_t slot = std::uint32_t(cs.emitted++ % t.buffers);
  const std::uint64_t base = t.fixed_bytes + slot * t.slot_bytes;
  const std::uint64_t row = std::uint64_t(band.image) * l.in.h + band.row0;
  std::vector<BandWriters> loads(c.inputs.size());
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const std::uint32_t ci = l.concat_channels[i];
    const std::uint64_t row_bytes = std::uint64_t(l.in.w) * ci;
    emit_band_loads(core, cs, window_pieces(core, c.inputs[i], row, band.rows, l.in.w, ci, 0, ci),
                    base + concat_region_offset(l, t.rows, i), cs.in_reader[slot], true,
                    {i, row * row_bytes, (row + band.rows) * row_bytes}, loads[i]);
  }
  cs.loaded_ifmap = true;
  std::uint32_t first_c = 0;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    if (i > 0) loads[i].emplace_back(std::uint64_t(cs.last_store), DependencyMode::TwoPhase);
    emit_band_store(core, cs, loads[i], base + concat_region_offset(l, t.rows, i), slot, tile, first_c,
                    l.concat_channels[i]);
    first_c += l.concat_channels[i];
  }
  cs.in_reader[slot] = cs.last_store;
}

// A channel block lands in its channels of the NHWC output: rows of `co` bytes, `out.c`
// apart; one store per DRAM chunk the band spans, the first released row by row.
void TraceEmitter::emit_band_store(std::uint32_t core, CoreState& cs, const BandWriters& writers, std::uint64_t out_at,
                                   std::uint32_t slot, std::uint64_t tile, std::uint32_t first_co, std::uint32_t co) {
  const CompiledLayer& c = layers_[layer_];
  const Layer& l = c.layer;
  const auto band = c.tiling.band_tile(l, tile);
  const std::uint64_t row = std::uint64_t(band.image) * l.out.h + band.row0;
  std::int64_t previous = kNone;
  for (const WindowPiece& piece : window_pieces(core, c.output, row, band.rows, l.out.w, l.out.c, first_co, co)) {
    Instruction store = make("store", "store", core);
    store.inputs = {tensor(AddressSpace::Nram, out_at + piece.offset, piece.shape, DType::Int8)};
    store.outputs = {tensor(AddressSpace::Dram, piece.address, piece.shape, DType::Int8)};
    store.outputs[0].pitch = piece.pitch;
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

void TraceEmitter::remember_store(CoreState& cs, std::int64_t id) {
  cs.last_store = id;
  cs.unretired_stores.push_back(id);
  if (cs.unretired_stores.size() > cs.store_slots) cs.unretired_stores.pop_front();
}

// Initialization phase (seed003 ¶[0046]): one ml_set per control register, no memory traffic.
void TraceEmitter::emit_shader_setup(std::uint32_t core) {
  const CompiledLayer& c = layers_[layer_];
  const ConvShape& g = c.tiling.shader_plan.layer;
  const std::vector<std::pair<const char*, std::uint64_t>> registers = {
      {"ifm_x", g.wi}, {"ifm_y", g.hi}, {"ifm_components", g.ci}, {"ifm_stride", g.sw}, {"ifm_stride_y", g.sh},
      {"ifm_depth_bits", 8 * g.element_bytes}, {"filters", g.co}, {"filter_x", g.kw}, {"filter_y", g.kh},
      {"out_base", c.output.address()}, {"ifm_base", c.inputs[0].address()}, {"weight_base", c.weights_offset},
      {"ifm_batch", g.n}, {"pad_top", g.pad_top}, {"pad_bottom", g.pad_bottom}, {"pad_left", g.pad_left},
      {"pad_right", g.pad_right}};
  for (const auto& [name, value] : registers) {
    Instruction set = make("ml_set", "fetch_ml", core);
    set.params = {{"register", name}, {"value", value}};
    push(std::move(set));
  }
}

// One register-group tile: its filters (when the group holds another block), its
// image rows, the multiply with requantization, and the return to NHWC addresses.
void TraceEmitter::emit_shader_tile(std::uint32_t core, CoreState& cs, std::uint64_t index) {
  const CompiledLayer& c = layers_[layer_];
  const ShaderConvPlan& plan = c.tiling.shader_plan;
  const ShaderTile& t = plan.tiles[index];
  const ConvShape& l = plan.layer;
  const std::uint32_t gi = std::uint32_t(cs.emitted++ % plan.groups);
  auto& group = cs.groups[gi];
  const std::uint64_t base = plan.group_offset(gi);
  const nlohmann::json positions = {t.positions.first, t.positions.count}, filters = {t.first_filter, t.filters};
  // Whatever the last layer left in the group must be read before this layer overwrites it.
  auto wait_for_group = [&](Instruction& fetch) {
    if (!group.fresh) return;
    for (std::int64_t id : {group.ifm_reader, group.weight_reader, group.result_reader}) depend(fetch, id);
  };
  const TensorOperand weights_rf = tensor(AddressSpace::Rf, base + plan.layout.weights, {t.filters, plan.K}, DType::Int8);
  if (group.filter_block != std::int64_t(t.first_filter)) {
    Instruction fetch = make("fetch_ml", "fetch_ml", core);
    fetch.inputs = {tensor(AddressSpace::Dram, c.weights_offset + t.first_filter * plan.K,
                           {t.filters, l.kh, l.kw, l.ci}, DType::Int8)};
    fetch.outputs = {weights_rf};
    fetch.params = {{"data", "weights"}, {"filters", filters}};
    depend(fetch, group.weight_reader);
    wait_for_group(fetch);
    group.weights = std::int64_t(push(std::move(fetch)));
    group.filter_block = t.first_filter;
  }

  Instruction fetch = make("fetch_ml", "fetch_ml", core);
  const std::uint64_t row_bytes = std::uint64_t(l.wi) * l.ci;
  fetch.inputs = {tensor(AddressSpace::Dram, c.inputs[0].address() + (std::uint64_t(t.positions.image) * l.hi + t.rows.first) * row_bytes,
                         {t.rows.count, l.wi, l.ci}, DType::Int8)};
  const bool compact = plan.site == UnrollSite::RfRead;
  const TensorOperand image_rf = tensor(AddressSpace::Rf, base + plan.layout.ifm,
                                       compact ? std::vector<std::uint64_t>{t.rows.count, l.wi, l.ci}
                                               : std::vector<std::uint64_t>{t.positions.count, plan.K},
                                       DType::Int8);
  fetch.outputs = {image_rf};
  fetch.params = {{"data", "ifm"}, {"image", t.positions.image}, {"positions", positions}};
  const std::uint64_t first_row = std::uint64_t(t.positions.image) * l.hi + t.rows.first;
  wait_for_writers(fetch, {0, first_row * row_bytes, (first_row + t.rows.count) * row_bytes});
  depend(fetch, group.ifm_reader);
  wait_for_group(fetch);
  group.fresh = false;
  if (!cs.loaded_ifmap) wait_for_producers(fetch);
  cs.loaded_ifmap = true;
  const std::int64_t fetched = std::int64_t(push(std::move(fetch)));
  record_read(std::uint64_t(fetched), 0);

  const TensorOperand results = tensor(AddressSpace::Rf, base + plan.layout.results, {t.positions.count, t.filters}, DType::Int8);
  Instruction matmul = make("ml_matmul", "shader", core);
  matmul.inputs = {image_rf, weights_rf};
  matmul.outputs = {results};
  matmul.params = {{"image", t.positions.image}, {"positions", positions}, {"filters", filters},
                   {"shift", c.layer.shift}, {"relu", c.layer.relu}};
  depend(matmul, fetched);
  depend(matmul, group.weights);
  depend(matmul, group.result_reader);
  const std::int64_t product = std::int64_t(push(std::move(matmul)));
  group.ifm_reader = group.weight_reader = product;
  release_return(cs);  // the previous tile's, now behind this tile's fetch

  Instruction back = make("ml_return", "fetch_ml", core);
  const std::uint64_t first = AddressGenerator::return_offset(l, t.positions.image, t.positions.first / l.wo(),
                                                              t.positions.first % l.wo(), t.first_filter);
  back.inputs = {results};
  back.outputs = {tensor(AddressSpace::Dram, c.output.address() + first, {t.positions.count, t.filters}, DType::Int8)};
  if (t.filters != l.co) back.outputs[0].pitch = l.co;
  back.params = {{"image", t.positions.image}, {"positions", positions}, {"filters", filters}};
  depend(back, product);
  const std::uint64_t first_position = std::uint64_t(t.positions.image) * l.ho() * l.wo() + t.positions.first;
  cs.held_bytes = {first_position * l.co, (first_position + t.positions.count) * l.co};
  cs.held_return = std::move(back);
  cs.held_group = gi;
  if (index + 1 == cs.end_tile) release_return(cs);  // the core's last tile of the layer
}

void TraceEmitter::release_return(CoreState& cs) {
  if (!cs.held_return) return;
  wait_for_overwritten(*cs.held_return, cs);
  cs.groups[cs.held_group].result_reader = cs.last_store = std::int64_t(push(std::move(*cs.held_return)));
  record_write(std::uint64_t(cs.last_store), cs.held_bytes.first, cs.held_bytes.second);
  cs.held_return.reset();
}

// A layer's first read of its input on a core waits for every core's last store of
// each producer layer (the data is in DRAM).
void TraceEmitter::wait_for_producers(Instruction& inst) const {
  for (int p : layers_[layer_].producers)
    if (p >= 0)
      for (std::int64_t id : final_stores_[std::size_t(p)]) depend(inst, id);
}

void TraceEmitter::wait_for_writers(Instruction& inst, const InputBytes& bytes) const {
  const int producer = layers_[layer_].producers.at(bytes.input);
  if (producer < 0) return;  // the network input: in DRAM before the run
  for (std::uint64_t id : writes_[std::size_t(producer)].writers(bytes.begin, bytes.end)) depend(inst, std::int64_t(id));
}

void TraceEmitter::record_write(std::uint64_t id, std::uint64_t begin, std::uint64_t end) {
  if (liveness_.outputs[layer_].readers > 0) writes_[layer_].add(begin, end, id);
}

void TraceEmitter::record_read(std::uint64_t id, std::size_t input) {
  const int producer = layers_[layer_].producers.at(input);
  if (dram_.reusing() && producer >= 0) reads_[std::size_t(producer)].push_back(id);
}

void TraceEmitter::wait_for_overwritten(Instruction& inst, CoreState& cs) const {
  if (cs.wrote_output) return;
  cs.wrote_output = true;
  for (int dead : layers_[layer_].overwrites) {
    for (std::uint64_t id : reads_[std::size_t(dead)]) depend(inst, std::int64_t(id));
    for (std::uint64_t id : writes_[std::size_t(dead)].writers(0, ~std::uint64_t(0))) depend(inst, std::int64_t(id));
  }
}

void TraceEmitter::finish_writes() {
  writes_[layer_].seal();
  auto forget = [&](int p) {
    if (p < 0 || keep_until_[std::size_t(p)] != std::int64_t(layer_)) return;
    writes_[std::size_t(p)].clear();
    reads_[std::size_t(p)] = {};
    final_stores_[std::size_t(p)] = {};
  };
  for (int p : layers_[layer_].producers) forget(p);
  for (int p : layers_[layer_].overwrites) forget(p);
}

void TraceEmitter::emit_sparse_weights(std::uint32_t core) {
  const CompiledLayer& c = layers_[layer_];
  const Layer& l = c.layer;
  Instruction pack = make("compress", "sparse", core);
  pack.inputs = {tensor(AddressSpace::Dram, c.weights_offset, weight_shape(l, c.tiling, l.out.c, l.in.c), DType::Int8)};
  pack.outputs = PackedRegion(c.packed_weights_offset, c.weight_bytes).operands();
  pack.params = {{"assumed_zeros", l.weight_sparsity}};
  packed_weights_ = std::int64_t(push(std::move(pack)));
}

void TraceEmitter::emit_sparse_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile) {
  const CompiledLayer& c = layers_[layer_];
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const auto [image, row0, rows, band] = t.band_tile(l, tile);
  const std::uint32_t slot = std::uint32_t(cs.emitted++ % 2);
  const std::uint64_t dense = std::uint64_t(band.in_rows) * l.in.w * l.in.c;
  const PackedRegion packed(packed_slots_ + (2 * std::uint64_t(core) + slot) * packed_slot_bytes_, dense);

  Instruction pack = make("compress", "sparse", core);
  const std::uint64_t from = c.inputs[0].address() + (std::uint64_t(image) * l.in.h + band.in_row0) * l.in.w * l.in.c;
  pack.inputs = {tensor(AddressSpace::Dram, from, {band.in_rows, l.in.w, l.in.c}, DType::Int8)};
  pack.outputs = packed.operands();
  pack.params = {{"assumed_zeros", l.activation_sparsity}};
  const std::uint64_t in_row = std::uint64_t(image) * l.in.h + band.in_row0, in_row_bytes = std::uint64_t(l.in.w) * l.in.c;
  wait_for_writers(pack, {0, in_row * in_row_bytes, (in_row + band.in_rows) * in_row_bytes});
  depend(pack, cs.packed_reader[slot]);
  if (!cs.loaded_ifmap) wait_for_producers(pack);
  cs.loaded_ifmap = true;
  const std::int64_t packed_id = std::int64_t(push(std::move(pack)));
  record_read(std::uint64_t(packed_id), 0);

  Instruction conv = make("sparse_conv", "sparse", core);
  conv.inputs = packed.operands();
  for (auto& operand : PackedRegion(c.packed_weights_offset, c.weight_bytes).operands()) conv.inputs.push_back(operand);
  const std::uint64_t to = c.output.address() + (std::uint64_t(image) * l.out.h + row0) * l.out.w * l.out.c;
  conv.outputs = {tensor(AddressSpace::Dram, to, {rows, l.out.w, l.out.c}, DType::Int8)};
  conv.params = {{"ifm_shape", {band.in_rows, l.in.w, l.in.c}},
                 {"kernel", {t.kernel_h, t.kernel_w}},
                 {"stride", {l.sh, l.sw}},
                 {"padding", {band.pad_top, band.pad_bottom, l.pad[2], l.pad[3]}},
                 {"shift", l.shift},
                 {"relu", l.relu},
                 {"assumed_sparsity",
                  {{"ifm", l.activation_sparsity}, {"weights", l.weight_sparsity}, {"seed", w_.seed + layer_}}}};
  depend(conv, packed_id);
  depend(conv, packed_weights_);
  wait_for_overwritten(conv, cs);
  cs.packed_reader[slot] = cs.last_store = std::int64_t(push(std::move(conv)));
  const std::uint64_t out_row = std::uint64_t(image) * l.out.h + row0, out_row_bytes = std::uint64_t(l.out.w) * l.out.c;
  record_write(std::uint64_t(cs.last_store), out_row * out_row_bytes, (out_row + rows) * out_row_bytes);
}

}  // namespace npusim
