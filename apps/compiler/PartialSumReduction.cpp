// Model-ci partial sums reduced between cores (seed002 Example 1).
#include "apps/compiler/TraceEmitter.h"

#include "apps/compiler/emit/TraceOperands.h"

namespace npusim {

bool TraceEmitter::partials_in_cache(const CompiledLayer& c) const {
  const auto& tags = c.split.tags;
  const bool tagged = !tags.empty() && tags.back().dynamic.store &&
                      tags.back().dynamic.store->level == StorageId::Level::ClusterCache;
  return tagged && hw_.chip.cluster_cache.enabled &&
         std::uint64_t(hw_.chip.cores_per_cluster) * 2 * c.tiling.acc_bytes <= hw_.chip.cluster_cache.capacity_bytes;
}

TensorOperand TraceEmitter::exchange_slot(std::uint32_t sender, std::uint32_t slot,
                                          const std::vector<std::uint64_t>& shape) const {
  if (!exchange_in_cache_)
    return tensor(AddressSpace::Dram, exchange_slots_.at(sender) + slot * exchange_slot_bytes_, shape, DType::Int32);
  const std::uint32_t per_cluster = hw_.chip.cores_per_cluster;
  TensorOperand t = tensor(AddressSpace::Cluster, (2 * std::uint64_t(sender % per_cluster) + slot) * cache_slot_bytes_,
                           shape, DType::Int32);
  t.cluster = sender / per_cluster;  // the sender's own cache; a receiver of another cluster reads it remotely
  return t;
}

// The reduction tree of seed002 Example 1 for one band (and co block): at step s = 1,
// 2, 4, ... the core at position i + s of the layer's cores hands its int32 sums to the
// core at position i (i a multiple of 2s) through the exchange level, which adds them
// to its own (Phase 2 pairs within a cluster first, Phase 3 across clusters); the first
// core then requantizes the total and stores it. int32 addition is exact, so the result
// is the same for any split.
void TraceEmitter::emit_reduction(std::uint64_t tile) {
  const CompiledLayer& c = layers_[layer_];
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const auto band = t.band_tile(l, tile);
  const auto [first_co, co] = t.core_block(l, 0, block_);
  const auto& cores = t.cores;
  const std::uint32_t slot = std::uint32_t((cores_[cores.front()].emitted - 1) % t.buffers);  // emit_tile's
  const std::uint64_t base = t.fixed_bytes + slot * t.slot_bytes;
  const std::uint64_t acc_at = base + t.in_bytes * c.inputs.size(), out_at = acc_at + t.acc_bytes;
  const std::uint64_t recv_at = out_at + t.out_bytes;
  const auto shape = nhwc(1, band.rows, l.out.w, co);
  const std::uint64_t bytes = std::uint64_t(band.rows) * l.out.w * co * 4;
  const TensorOperand acc = tensor(AddressSpace::Nram, acc_at, shape, DType::Int32);
  const TensorOperand recv = tensor(AddressSpace::Nram, recv_at, shape, DType::Int32);
  auto mark = [&](std::uint64_t id) {
    reduction_ids_.add(id);
    return std::int64_t(id);
  };
  LayerTraffic& traffic = traffic_[layer_];
  const std::uint32_t per_cluster = hw_.chip.cores_per_cluster;
  for (std::size_t step = 1; step < cores.size(); step *= 2)
    for (std::size_t i = 0; i + step < cores.size(); i += 2 * step) {
      const std::uint32_t r = cores[i], q = cores[i + step];
      CoreState &rs = cores_[r], &qs = cores_[q];
      Instruction put = make("store", "store", q);
      put.inputs = {acc};
      put.outputs = {exchange_slot(q, slot, shape)};
      depend(put, qs.acc_writer);
      depend(put, qs.exchange_reader[slot]);
      for (std::int64_t id : qs.cache_fence) depend(put, id);
      qs.cache_fence.clear();
      const std::int64_t sent = mark(push(std::move(put)));
      qs.acc_reader[slot] = qs.last_store = sent;

      Instruction take = make("load", "load", r);
      take.inputs = {exchange_slot(q, slot, shape)};
      take.outputs = {recv};
      depend(take, sent);
      depend(take, rs.recv_reader[slot]);
      const std::int64_t taken = mark(push(std::move(take)));
      qs.exchange_reader[slot] = taken;

      Instruction add = make("add", "vector", r);
      add.inputs = {acc, recv};
      add.outputs = {acc};
      depend(add, taken);
      depend(add, rs.acc_writer);
      rs.acc_writer = rs.recv_reader[slot] = mark(push(std::move(add)));

      traffic.exchange_nram += bytes;  // r's own sums stay where they are
      (!exchange_in_cache_             ? traffic.exchange_dram
       : r / per_cluster == q / per_cluster ? traffic.exchange_cache
                                            : traffic.exchange_remote_cache) += bytes;
    }
  CoreState& root = cores_[cores.front()];
  Instruction post = make("requant", "vector", cores.front());
  post.inputs = {acc};
  post.outputs = {tensor(AddressSpace::Nram, out_at, shape, DType::Int8)};
  post.params = {{"shift", l.shift}, {"relu", l.relu}};
  depend(post, root.acc_writer);
  depend(post, root.out_reader[slot]);
  const std::uint64_t result = push(std::move(post));
  root.acc_reader[slot] = std::int64_t(result);
  emit_band_store(cores.front(), root, {{result, DependencyMode::Staged}}, out_at, slot, tile, first_co, co);
}

}  // namespace npusim
