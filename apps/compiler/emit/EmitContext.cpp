#include "apps/compiler/emit/EmitContext.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/tiling/LoadOrder.h"
#include "models/dma/DmaConfig.h"
#include "models/interconnect/Interconnect.h"

namespace npusim {

EmitContext::EmitContext(const Workload& workload, const HardwareConfig& hw, std::vector<CompiledLayer> layers)
    : w_(workload), hw_(hw), layers_(std::move(layers)), dram_(hw.chip) {
  traffic_.resize(layers_.size());
  for (auto& t : traffic_) start_traffic(t);
  place_tensors();
  if (!dram_.fits()) {  // a region per tensor is too much: place again, dead tensors' DRAM reused
    forget_placement();
    dram_.reuse_dead_tensors();
    place_tensors();
  }
  dram_.check_capacity(w_.file);
  plan_overwrites();
  add_bindings();
  cores_.resize(hw.chip.cores());
  for (std::uint32_t k = 0; k < cores_.size(); ++k)
    if (hw.core_of(k).blocks.has("store_dma"))
      cores_[k].store_slots = hw.core_of(k).block<DmaConfig>("store_dma").max_outstanding;
  final_stores_.assign(layers_.size(), {});
  writes_.resize(layers_.size());
  reads_.resize(layers_.size());
}

// Every lowering's state starts over with each placement (its DRAM slots are placed again).
void EmitContext::make_states() {
  states_.clear();
  for (const Lowering* l : lowerings()) states_.emplace_back(l, l->make_state(*this));
}

LoweringState* EmitContext::state(const Lowering& lowering) const {
  for (const auto& [owner, s] : states_)
    if (owner == &lowering) return s.get();
  throw std::logic_error("compiler: no state for lowering '" + lowering.name() + "'");
}

void EmitContext::forget_placement() {
  for (auto& c : layers_) {
    c.inputs.clear();
    c.producers.clear();
    c.overwrites.clear();
    c.kv_cache = {};
  }
}

// How long the emitter keeps the writers and readers of each output: while it is read,
// and while a later output that takes its DRAM has yet to be written.
void EmitContext::plan_overwrites() {
  keep_until_.resize(layers_.size());
  for (std::size_t i = 0; i < layers_.size(); ++i) keep_until_[i] = layers_[i].last_reader;
  for (std::size_t i = 0; i < layers_.size(); ++i)
    for (int dead : layers_[i].overwrites) keep_until_[std::size_t(dead)] = std::max(keep_until_[std::size_t(dead)], std::int64_t(i));
}

std::size_t EmitContext::layer_of(std::uint64_t id) const {
  auto it = std::upper_bound(first_ids_.begin(), first_ids_.end(), id);
  return std::size_t(it - first_ids_.begin()) - 1;
}

// Deals the layer's tiles (image-major bands) to its groups of cores in contiguous runs:
// each core its own run in data mode, one run of every tile in a model mode, a run per
// cluster in a hybrid mode (LayerTiling::group).
std::uint64_t EmitContext::start_layer(std::uint64_t tiles) {
  const LayerTiling& t = layer().tiling;
  const std::uint64_t count = t.cores.size(), groups = t.groups();
  std::uint64_t steps = 0;
  for (auto& cs : cores_) cs.first_tile = cs.end_tile = 0;
  // Model-co: every core reads every band; the cores of the i-th of the layer's clusters
  // start at band tiles * i / clusters, which lies in their own memory (the rows are
  // placed by cluster), so the clusters read different memories at the same time.
  std::vector<std::uint32_t> clusters;
  for (std::uint32_t core : t.cores)
    if (clusters.empty() || clusters.back() != core / hw_.chip.cores_per_cluster)
      clusters.push_back(core / hw_.chip.cores_per_cluster);
  for (std::uint64_t k = 0; k < count; ++k) {
    CoreState& cs = cores_[t.cores[k]];
    const std::uint64_t g = t.split == ParallelMode::Data ? k : k / t.group;
    cs.first_tile = tiles * g / groups;
    cs.end_tile = tiles * (g + 1) / groups;
    cs.share = std::size_t(k);
    const auto position = std::find(clusters.begin(), clusters.end(), t.cores[k] / hw_.chip.cores_per_cluster);
    cs.rotation = t.split == ParallelMode::ModelCo && dram_.separate_memories()
                      ? tiles * std::uint64_t(position - clusters.begin()) / clusters.size()
                      : 0;
    cs.emitted = 0;
    cs.loaded_ifmap = false;
    cs.wrote_output = false;
    steps = std::max(steps, cs.end_tile - cs.first_tile);
  }
  first_ids_.push_back(next_id_);
  block_ = 0;
  step_ = 0;
  return steps;
}

// Weight-stationary: every band of a weight block, block after block. With the input
// resident (feature-map- and row-stationary, LoadOrder.h): every weight block of a band,
// band after band.
bool EmitContext::next_step(std::uint64_t steps, std::uint32_t passes) {
  if (input_resident(layer().tiling)) {
    if (++block_ < passes) return true;
    block_ = 0;
    return ++step_ < steps;
  }
  if (++step_ < steps) return true;
  step_ = 0;
  return ++block_ < passes;
}

void EmitContext::finish_layer() {
  for (std::uint32_t k = 0; k < cores_.size(); ++k) {
    const CoreState& cs = cores_[k];
    if (cs.end_tile <= cs.first_tile) continue;
    std::vector<std::int64_t>& finals = final_stores_[layer_];
    finals.insert(finals.end(), cs.unretired_stores.begin(), cs.unretired_stores.end());
    if (cs.unretired_stores.empty() || cs.unretired_stores.back() != cs.last_store) finals.push_back(cs.last_store);
  }
  finish_writes();
  ++layer_;
}

std::uint64_t EmitContext::push(Instruction inst) {
  inst.id = next_id_++;
  count_dram(inst);
  // A compiler bug, not bad input: the tiler laid two regions over each other.
  if (auto problem = operand_overlap(inst))
    throw std::logic_error(fmt::format("compiler: {} instruction {} of layer '{}': {}: {}", inst.op, inst.id,
                                       layers_[layer_].layer.name, problem->field, problem->reason));
  pending_.push_back(std::move(inst));
  return pending_.back().id;
}

bool EmitContext::pop(Instruction& out) {
  if (pending_.empty()) return false;
  out = std::move(pending_.front());
  pending_.pop_front();
  return true;
}

void EmitContext::start_traffic(LayerTraffic& t) const {
  const ChipConfig& chip = hw_.chip;
  t.dram_local.assign(chip.clusters, 0), t.dram_remote.assign(chip.clusters, 0);
  t.dram_channel.assign(chip.dram.channels, 0);
  t.load_dma.assign(chip.cores(), 0), t.store_dma.assign(chip.cores(), 0);
  t.cluster_link.assign(chip.clusters, 0), t.cache_port.assign(chip.clusters, 0);
  t.pair_link.assign(std::size_t(chip.clusters) * chip.clusters, 0);
}

// What one load or store busies besides DRAM: its DMA, and the cluster cache it names.
void EmitContext::count_transfer(const Instruction& inst, LayerTraffic& traffic) const {
  const std::uint32_t cluster = inst.core / hw_.chip.cores_per_cluster;
  (inst.op == "load" ? traffic.load_dma : traffic.store_dma)[inst.core] += inst.outputs.at(0).bytes();
  for (const auto* list : {&inst.inputs, &inst.outputs})
    for (const TensorOperand& t : *list)
      if (t.space == AddressSpace::Cluster) traffic.cache_port[t.cluster ? *t.cluster : cluster] += t.bytes();
}

// Load and store bytes to DRAM, by the cluster of the core and whether the channel is
// its cluster's own memory, per channel, and on the links they cross (a piece crosses its
// cluster's link and, on NUMA to another cluster's memory, the pair link between them);
// a multicast copy reads no DRAM and crosses the links only into another cluster (SharedReads.cpp).
void EmitContext::count_dram(const Instruction& inst) {
  if (inst.op != "load" && inst.op != "store") return;
  const std::uint32_t cluster = inst.core / hw_.chip.cores_per_cluster;
  LayerTraffic& traffic = traffic_[layer_];
  count_transfer(inst, traffic);
  const auto multicast = inst.params.find("multicast");
  const bool copy = multicast != inst.params.end();
  if (copy) {
    (*multicast == "core" ? traffic.multicast_core : traffic.multicast_cluster) += inst.inputs[0].bytes();
    if (*multicast == "core") return;
  }
  auto dram_rows = [&](auto&& add) {
    for (const auto* list : {&inst.inputs, &inst.outputs})
      for (const TensorOperand& t : *list) {
        if (t.space != AddressSpace::Dram || t.bytes() == 0) continue;
        if (t.dense()) {
          add(t.offset, t.bytes(), 1);
          continue;
        }
        // Rows row_pitch apart: those a share period apart split over the channels alike.
        const std::uint64_t row = t.row_bytes(), rows = t.bytes() / row, period = dram_.share_period(t.row_pitch(), rows);
        for (std::uint64_t r = 0; r < period; ++r)
          add(t.offset + r * t.row_pitch(), row, rows / period + (r < rows % period ? 1 : 0));
      }
  };
  const bool numa = hw_.chip.interconnect.topology == Topology::Numa;
  dram_.for_each_channel_of(dram_rows, [&](std::uint32_t channel, std::uint64_t n) {
    const std::uint32_t home = home_cluster(hw_.chip, channel);
    traffic.cluster_link[cluster] += n;
    if (numa && home != cluster) traffic.pair_link[std::min(home, cluster) * hw_.chip.clusters + std::max(home, cluster)] += n;
    if (copy) return;
    traffic.dram_channel[channel] += n;
    (home == cluster ? traffic.dram_local : traffic.dram_remote)[cluster] += n;
  });
}

void EmitContext::wait_for_producers(Instruction& inst) const {
  for (int p : layers_[layer_].producers)
    if (p >= 0)
      for (std::int64_t id : final_stores_[std::size_t(p)]) depend(inst, id);
}

void EmitContext::wait_for_writers(Instruction& inst, const InputBytes& bytes) const {
  const int producer = layers_[layer_].producers.at(bytes.input);
  if (producer < 0) return;  // the network input: in DRAM before the run
  depend_on_each(inst, writes_[std::size_t(producer)].writers(bytes.begin, bytes.end));
}

void EmitContext::record_write(std::uint64_t id, std::uint64_t begin, std::uint64_t end) {
  if (layers_[layer_].output_readers > 0) writes_[layer_].add(begin, end, id);
}

void EmitContext::record_read(std::uint64_t id, std::size_t input) {
  const int producer = layers_[layer_].producers.at(input);
  if (dram_.reusing() && producer >= 0) reads_[std::size_t(producer)].push_back(id);
}

void EmitContext::wait_for_overwritten(Instruction& inst, CoreState& cs) const {
  if (cs.wrote_output) return;
  cs.wrote_output = true;
  for (int dead : layers_[layer_].overwrites) {
    depend_on_each(inst, reads_[std::size_t(dead)]);
    depend_on_each(inst, writes_[std::size_t(dead)].writers(0, ~std::uint64_t(0)));
  }
}

void EmitContext::remember_store(CoreState& cs, std::int64_t id) {
  cs.last_store = id;
  cs.unretired_stores.push_back(id);
  if (cs.unretired_stores.size() > cs.store_slots) cs.unretired_stores.pop_front();
}

// The layer is fully emitted: its writes can be looked up, and the writes of tensors it
// was the last reader of are forgotten.
void EmitContext::finish_writes() {
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

}  // namespace npusim
