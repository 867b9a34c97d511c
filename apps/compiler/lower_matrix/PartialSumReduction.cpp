// Model-ci partial sums reduced between cores (seed002 Example 1).
#include <algorithm>

#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_matrix/MatrixState.h"
#include "apps/compiler/lower_vector/VectorOps.h"

namespace npusim {
namespace {

// One band's reduction: the slot the cores' sums are in, and their shape and size.
struct Reduction {
  BandSlot slot;
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes = 0;
  TensorOperand acc, recv;
};

// Where `sender` leaves partial sums of `slot` for a core of `receiver_cluster`.
TensorOperand exchange_slot(const EmitContext& ctx, const MatrixState& state, std::uint32_t sender, std::uint32_t slot,
                            const std::vector<std::uint64_t>& shape) {
  if (!state.exchange_in_cache)
    return tensor(AddressSpace::Dram, state.exchange_slots.at(sender) + slot * state.exchange_slot_bytes, shape,
                  DType::Int32);
  const std::uint32_t per_cluster = ctx.hw().chip.cores_per_cluster;
  TensorOperand t = tensor(AddressSpace::Cluster, (2 * std::uint64_t(sender % per_cluster) + slot) * state.cache_slot_bytes,
                           shape, DType::Int32);
  t.cluster = sender / per_cluster;  // the sender's own cache; a receiver of another cluster reads it remotely
  return t;
}

std::int64_t push_marked(EmitContext& ctx, Instruction inst) {
  const std::uint64_t id = ctx.push(std::move(inst));
  ctx.mark_reduction(id);
  return std::int64_t(id);
}

// Core `q` hands its sums to core `r` through the exchange level, which adds them to its own.
void exchange_pair(EmitContext& ctx, MatrixState& state, const Reduction& red, std::uint32_t r, std::uint32_t q) {
  const std::uint32_t slot = red.slot.index;
  MatrixCore &rm = state.cores[r], &qm = state.cores[q];
  Instruction put = make_op("store", q);
  put.inputs = {red.acc};
  put.outputs = {exchange_slot(ctx, state, q, slot, red.shape)};
  depend(put, qm.acc_writer);
  depend(put, qm.exchange_reader[slot]);
  for (std::int64_t id : qm.cache_fence) depend(put, id);
  qm.cache_fence.clear();
  const std::int64_t sent = push_marked(ctx, std::move(put));
  ctx.core(q).acc_reader[slot] = ctx.core(q).last_store = sent;

  Instruction take = make_op("load", r);
  take.inputs = {exchange_slot(ctx, state, q, slot, red.shape)};
  take.outputs = {red.recv};
  depend(take, sent);
  depend(take, rm.recv_reader[slot]);
  const std::int64_t taken = push_marked(ctx, std::move(take));
  qm.exchange_reader[slot] = taken;

  Instruction add = make_op("add", r);
  add.inputs = {red.acc, red.recv};
  add.outputs = {red.acc};
  depend(add, taken);
  depend(add, rm.acc_writer);
  rm.acc_writer = rm.recv_reader[slot] = push_marked(ctx, std::move(add));

  LayerTraffic& traffic = ctx.traffic();
  const std::uint32_t per_cluster = ctx.hw().chip.cores_per_cluster;
  traffic.exchange_nram += red.bytes;  // r's own sums stay where they are
  (!state.exchange_in_cache            ? traffic.exchange_dram
   : r / per_cluster == q / per_cluster ? traffic.exchange_cache
                                        : traffic.exchange_remote_cache) += red.bytes;
}

}  // namespace

bool partials_in_cache(const HardwareConfig& hw, const CompiledLayer& c) {
  const auto& tags = c.split.tags;
  const bool tagged = !tags.empty() && tags.back().dynamic.store &&
                      tags.back().dynamic.store->level == StorageId::Level::ClusterCache;
  return tagged && hw.chip.cluster_cache.enabled &&
         std::uint64_t(hw.chip.cores_per_cluster) * 2 * c.tiling.acc_bytes <= hw.chip.cluster_cache.capacity_bytes;
}

// Model-ci partial sums: two slots per core, in its cluster's cache when the output's
// tag stores them there and the layer's slots fit, else in DRAM in the core's
// cluster's memory (Example 2).
void place_exchange_slots(EmitContext& ctx, MatrixState& state) {
  bool through_dram = false;
  for (const auto& c : ctx.layers())
    if (splits_ci(c.tiling.split)) {
      state.exchange_slot_bytes = std::max(state.exchange_slot_bytes, c.tiling.acc_bytes);
      through_dram = through_dram || !partials_in_cache(ctx.hw(), c);
    }
  const ChipConfig& chip = ctx.hw().chip;
  if (through_dram)
    for (std::uint32_t core = 0; core < chip.cores(); ++core)
      state.exchange_slots.push_back(ctx.dram().allocate(2 * state.exchange_slot_bytes,
                                                         ctx.dram().memory_of_cluster(core / chip.cores_per_cluster)));
}

// Cache slots are laid out by each layer's sums; when that changes, a core's first
// store waits for every earlier read of its cluster's slots.
void note_cache_layout(EmitContext& ctx, MatrixState& state) {
  const CompiledLayer& c = ctx.layer();
  state.exchange_in_cache = partials_in_cache(ctx.hw(), c);
  if (!state.exchange_in_cache || c.tiling.acc_bytes == state.cache_slot_bytes) return;
  state.cache_slot_bytes = c.tiling.acc_bytes;
  const std::uint32_t per_cluster = ctx.hw().chip.cores_per_cluster;
  for (std::uint32_t core = 0; core < state.cores.size(); ++core) {
    std::vector<std::int64_t>& fence = state.cores[core].cache_fence;
    fence.clear();
    for (std::uint32_t other = 0; other < state.cores.size(); ++other)
      if (other / per_cluster == core / per_cluster)
        for (std::int64_t id : state.cores[other].exchange_reader) fence.push_back(id);
  }
}

namespace {

// The reduction tree of seed002 Example 1 for one band (and co block) of one group of
// cores (every core of a model-ci layer, one cluster's of a hybrid-ci layer): at step
// s = 1, 2, 4, ... the core at position i + s of the group hands its int32 sums to the
// core at position i (i a multiple of 2s) through the exchange level, which adds them
// to its own (Phase 2 pairs within a cluster first, Phase 3 across clusters); the first
// core then requantizes the total and stores it. int32 addition is exact, so the result
// is the same for any split.
void emit_group_reduction(EmitContext& ctx, MatrixState& state, const std::vector<std::uint32_t>& cores,
                          std::uint64_t tile) {
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const auto band = t.band_tile(l, tile);
  const auto [first_co, co] = t.core_block(l, 0, ctx.block());
  Reduction red;
  // The slot emit_matrix_tile just used on the first core (every core uses the same one).
  red.slot = ctx.band_slot(std::uint32_t((ctx.core(cores.front()).emitted - 1) % t.buffers), c.inputs.size());
  red.shape = nhwc(1, band.rows, l.out.w, co);
  red.bytes = std::uint64_t(band.rows) * l.out.w * co * 4;
  red.acc = tensor(AddressSpace::Nram, red.slot.acc_at, red.shape, DType::Int32);
  red.recv = tensor(AddressSpace::Nram, red.slot.out_at + t.out_bytes, red.shape, DType::Int32);
  for (std::size_t step = 1; step < cores.size(); step *= 2)
    for (std::size_t i = 0; i + step < cores.size(); i += 2 * step) exchange_pair(ctx, state, red, cores[i], cores[i + step]);
  CoreState& root = ctx.core(cores.front());
  Instruction post = requant_op(cores.front(), red.acc, red.slot.out_at, l, first_co);
  depend(post, state.cores[cores.front()].acc_writer);
  depend(post, root.out_reader[red.slot.index]);
  const std::uint64_t result = ctx.push(std::move(post));
  root.acc_reader[red.slot.index] = std::int64_t(result);
  ctx.emit_band_store(cores.front(), {{result, DependencyMode::Staged}}, red.slot.out_at, red.slot.index, tile, first_co,
                      co);
}

}  // namespace

// Step `step` of the layer: each group whose run of bands reaches that far reduces its band.
void emit_reduction(EmitContext& ctx, MatrixState& state, std::uint64_t step) {
  const LayerTiling& t = ctx.layer().tiling;
  for (std::size_t first = 0; first < t.cores.size(); first += t.group) {
    const std::vector<std::uint32_t> group(t.cores.begin() + std::ptrdiff_t(first),
                                           t.cores.begin() + std::ptrdiff_t(std::min(first + t.group, t.cores.size())));
    const CoreState& lead = ctx.core(group.front());
    if (lead.first_tile + step < lead.end_tile) emit_group_reduction(ctx, state, group, lead.first_tile + step);
  }
}

}  // namespace npusim
