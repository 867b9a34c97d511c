#include "models/sparse_cluster/SparseTensorCluster.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "models/compression_block/FlatCompressed.h"
#include "models/engine/EngineRegistry.h"
#include "models/interconnect/Interconnect.h"
#include "models/kernel/SimTime.h"
#include "models/sparse_cluster/SparseClusterEnergy.h"
#include "models/sparse_cluster/SparseOps.h"
#include "models/sparse_cluster/SparseLayerMapping.h"
#include "models/vector_unit/VectorKernels.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

SparseTensorCluster::SparseTensorCluster(sc_core::sc_module_name name, EngineSetup setup,
                                         const SparseClusterConfig& cfg)
    : Engine(name, std::move(setup), cfg.queue_depth), cfg_(cfg) {
  StatGroup& g = stat_group();
  c_.dense_macs = &g.counter("dense_macs", "MACs", "multiply-accumulates a dense engine would do for the same layers");
  c_.products = &g.counter("useful_macs", "MACs", "non-zero x non-zero products the units formed");
  c_.imbalance_permille =
      &g.counter("worst_imbalance_permille", "1/1000", "largest partition imbalance of any sparse_conv");
  c_.partition_moves = &g.counter("partition_moves", "count", "boundary moves the balancing made");
  c_.compressed_elements = &g.counter("compressed_elements", "count", "dense elements the compress op scanned");
  c_.compressed_nonzeros = &g.counter("compressed_nonzeros", "count", "non-zeros the compress op wrote");
  c_.output_compressed_bytes = &g.counter("output_compressed_bytes", "bytes",
                                          "bytes the compression blocks stored (sparse_conv_compressed outputs)");
  c_.output_dense_bytes = &g.counter("output_dense_bytes", "bytes",
                                     "bytes those outputs would have taken stored dense (int8)");
  c_.dram_bytes_skipped = &g.counter("dram_bytes_skipped", "bytes",
                                     "output bytes handed to the next layer's units that neither went to DRAM nor "
                                     "came back (seed001 ¶84), counted on both sides");
  const ComputeUnitTiming timing = cfg.unit_timing();
  for (std::uint32_t u = 0; u < cfg.units; ++u) {
    const std::string n = std::to_string(u);
    fm_units_.push_back(std::make_unique<FeatureMapMemoryUnit>(("fm_memory" + n).c_str(), cfg.fm_buffer_bytes,
                                                               cfg.dma_bytes_per_cycle, cfg.request_bytes,
                                                               group(".fm_memory" + n, "sparse_fm_memory")));
    units_.push_back(std::make_unique<SparseComputeUnit>(("unit" + n).c_str(), cfg.unit_shape(), timing,
                                                         group(".unit" + n, "sparse_unit")));
  }
  weight_memory_ = std::make_unique<WeightMemory>("weight_memory", cfg.weight_buffer_bytes, cfg.dma_bytes_per_cycle,
                                                  cfg.request_bytes, cfg.weight_refill,
                                                  group(".weight_memory", "sparse_weight_memory"));
  if (cfg.compute_interconnect != ComputeInterconnectKind::None)
    compute_net_ = std::make_unique<ComputeInterconnect>(
        "compute_interconnect", cfg.compute_interconnect, cfg.units, cfg.compute_stage_cycles,
        cfg.compute_link_bytes_per_cycle, group(".compute_interconnect", "sparse_compute_interconnect"));
  compress_path_ = std::make_unique<DmaPath>("compress_port", cfg.dma_bytes_per_cycle, cfg.request_bytes);
}

StatGroup& SparseTensorCluster::group(const std::string& suffix, const std::string& kind) {
  const std::string owner = stat_group().owner() + suffix;
  if (setup().stats) return setup().stats->group(owner, kind);
  return own_groups_.emplace_back(owner, kind);
}

void SparseTensorCluster::connect(CoreWiring& wiring) {
  for (auto& fm : fm_units_) wiring.interconnect.connect(fm->dma.port, wiring.cluster);
  wiring.interconnect.connect(weight_memory_->dma.port, wiring.cluster);
  wiring.interconnect.connect(compress_path_->port, wiring.cluster);
}

Engine::Work SparseTensorCluster::execute(const Instruction& inst) {
  return inst.op == "compress" ? compress(inst) : sparse_conv(inst);
}

// Reads a compressed tensor functionally (zero time; the DMA paths pay for the bytes)
// and checks it: indices strictly increasing, inside the dense tensor, ended by -1 or
// by the end of the list.
CompressedMap SparseTensorCluster::read_compressed(const Instruction& inst, std::size_t values,
                                                   std::uint64_t dense_elements, std::uint32_t h, std::uint32_t w,
                                                   std::uint32_t c) {
  const TensorOperand& v = inst.inputs.at(values);
  const TensorOperand& ix = inst.inputs.at(values + 1);
  const std::uint64_t capacity = v.shape.at(0);
  std::vector<std::int8_t> vals(capacity);
  std::vector<std::int32_t> idx(capacity);
  compress_path_->peek(v.offset, capacity, reinterpret_cast<std::uint8_t*>(vals.data()));
  compress_path_->peek(ix.offset, 4 * capacity, reinterpret_cast<std::uint8_t*>(idx.data()));
  CompressedMap m{h, w, c, {}, {}};
  for (std::uint64_t i = 0; i < capacity && idx[i] != FlatCompressed::kEndOfList; ++i) {
    if (idx[i] < 0 || std::uint64_t(idx[i]) >= dense_elements)
      fail_instruction(inst, fmt::format("inputs[{}] entry {} is {}, outside the dense tensor of {} elements",
                                         values + 1, i, idx[i], dense_elements));
    if (i > 0 && idx[i] <= idx[i - 1])
      fail_instruction(inst, fmt::format("inputs[{}] entry {} ({}) does not follow entry {} ({}): indices must "
                                         "increase strictly",
                                         values + 1, i, idx[i], i - 1, idx[i - 1]));
    m.values.push_back(vals[i]);
    m.indices.push_back(std::uint32_t(idx[i]));
  }
  return m;
}

// The compression path reads the dense tensor (into `bytes` in functional runs) and scans
// it at compress_elements_per_cycle; returns when both are done.
Cycles SparseTensorCluster::scan_dense(const Instruction& inst, std::vector<std::uint8_t>& bytes) {
  const TensorOperand& dense = inst.inputs.at(0);
  const std::uint64_t n = dense.elements();
  const Cycles start = now_cycles();
  bytes.resize(setup().functional ? n : 0);
  const Cycles done =
      compress_path_->transfer(false, dense.offset, n, setup().functional ? bytes.data() : nullptr, start);
  return std::max(done, start + (n + cfg_.compress_elements_per_cycle - 1) / cfg_.compress_elements_per_cycle);
}

Engine::Work SparseTensorCluster::compress(const Instruction& inst) {
  if (inst.outputs.at(1).dtype == DType::UInt8) return compress_rows_op(inst);
  const TensorOperand& values = inst.outputs.at(0);
  const TensorOperand& indices = inst.outputs.at(1);
  const std::uint64_t n = inst.inputs.at(0).elements(), capacity = values.shape.at(0);
  std::vector<std::uint8_t> bytes;
  const Cycles done = scan_dense(inst, bytes);
  FlatCompressed flat;
  if (setup().functional)
    flat = compress_flat(bytes.data(), n, capacity);
  else
    flat.nonzeros = n - std::min<std::uint64_t>(n, std::llround(inst.params.value("assumed_zeros", 0.0) * double(n)));
  const std::uint64_t nonzeros = flat.nonzeros;
  if (nonzeros > capacity)
    fail_instruction(inst, fmt::format("the tensor has {} non-zeros but outputs[0] holds only {}", nonzeros, capacity));
  const std::uint64_t written = std::min(capacity, nonzeros + 1);
  const bool f = setup().functional;
  const Cycles v = compress_path_->transfer(true, values.offset, written,
                                            f ? reinterpret_cast<std::uint8_t*>(flat.values.data()) : nullptr, done);
  const Cycles i = compress_path_->transfer(true, indices.offset, 4 * written,
                                            f ? reinterpret_cast<std::uint8_t*>(flat.indices.data()) : nullptr, done);
  *c_.compressed_elements += n;
  *c_.compressed_nonzeros += nonzeros;
  wait_until(std::max(v, i));
  return {n + 5 * written, 0};
}

Engine::Work SparseTensorCluster::sparse_conv(const Instruction& inst) {
  ConvShape g;
  const auto map = inst.params.at("ifm_shape").get<std::vector<std::uint32_t>>();
  const auto kernel = inst.params.at("kernel").get<std::vector<std::uint32_t>>();
  g.hi = map[0];
  g.wi = map[1];
  g.ci = map[2];
  g.kh = kernel[0];
  g.kw = kernel[1];
  g.read_params(inst.params);
  const TensorOperand& out = inst.outputs.at(0);
  g.co = std::uint32_t(out.shape.at(2));
  if (auto misfit = kernel_misfit(cfg_, g.kh, g.kw)) fail_instruction(inst, *misfit);
  CompressedMap ifm, wmap;
  CompressedRowSizes ifm_rows;
  conv_operands(inst, g, ifm, wmap, ifm_rows);
  const SparseConvPlan plan(cfg_, g, ifm, wmap);
  const SparsityPartition& part = plan.partition();

  ConvSchedule run(inst, plan, now_cycles(), cfg_.units);
  if (inst.inputs[1].dtype == DType::UInt8) run.ifm_rows = &ifm_rows;
  run.compressed = inst.outputs.size() == 2;
  run.hand_off = inst.params.value("hand_off", false);
  run.handed_in = inst.params.value("handed_in", false);
  run.pool = back_end_pool(inst.params, g);
  if ((run.compressed || run.pool) && setup().functional) run.ofm.assign(std::size_t(g.ho()) * g.wo() * g.co, 0);
  begin_layer(run, wmap.values.size());
  if (run.handed_in) take_handed_in(run);
  const MemoryInterconnect net = cfg_.memory_network();
  SubmapDispatcher dispatch = plan.dispatcher(net);
  // The units work in parallel; whichever goes idle first asks the interconnect for
  // its next sub-map (static binding: only its own memory unit's).
  SparseConvRun row{inst.id, g.to_string(), ifm.values.size(), wmap.values.size(), part.grid_rows, part.grid_cols,
                    part.imbalance, part.moves};
  row.units.resize(cfg_.units);
  dispatch_submaps(dispatch, cfg_.units, run.weights_done,
                   [&](std::uint32_t u, const SubmapDispatcher::Pick& pick, Cycles free) {
                     return run_submap(run, u, pick.submap, pick.memory_unit, net.latency(u, pick.memory_unit), free,
                                       row.units[u]);
                   });
  finish_layer(run, row, wmap.values.size());
  finish_back_end(run);
  for (SparseUnitTally& unit : row.units) unit.done = unit.submaps ? unit.done - run.start : 0;
  row.dense_macs = std::uint64_t(g.ho()) * g.wo() * g.co * g.kh * g.kw * g.ci;
  row.useful_macs = run.products;
  row.cycles = run.done - run.start;
  row.dram_bytes_skipped = run.skipped;
  *c_.dram_bytes_skipped += run.skipped;
  *c_.dense_macs += row.dense_macs;
  *c_.products += run.products;
  *c_.imbalance_permille = std::max<std::uint64_t>(*c_.imbalance_permille, std::llround(part.imbalance * 1000));
  *c_.partition_moves += part.moves;
  layers_.add(std::move(row));
  wait_until(run.done);
  const std::uint64_t ifm_bytes = run.handed_in ? 0 : run.ifm_rows ? ifm_rows.total() : ifm.values.size() * 5;
  return {ifm_bytes + wmap.values.size() * 5 + run.out_bytes, run.products};
}

void SparseTensorCluster::conv_operands(const Instruction& inst, const ConvShape& g, CompressedMap& ifm,
                                        CompressedMap& wmap, CompressedRowSizes& ifm_rows) {
  const std::uint64_t dense_w = std::uint64_t(g.co) * g.kh * g.kw * g.ci;
  const bool recursive = inst.inputs[1].dtype == DType::UInt8;
  if (setup().functional) {
    ifm = recursive ? read_recursive(inst, g, ifm_rows)
                    : read_compressed(inst, 0, std::uint64_t(g.hi) * g.wi * g.ci, g.hi, g.wi, g.ci);
    wmap = read_compressed(inst, 2, dense_w, g.co, g.kh * g.kw, g.ci);
    return;
  }
  if (!inst.params.contains("assumed_sparsity"))
    fail_instruction(inst, "a timing-only run cannot see the data: give params.assumed_sparsity "
                           "{\"ifm\": zero fraction, \"weights\": zero fraction, \"seed\": n}, or run --functional");
  AssumedSparsity a;
  read_assumed_sparsity(inst.params, "assumed_sparsity", a);  // checked when the trace was read
  ifm = assumed_map(g.hi, g.wi, g.ci, a.ifm, a.seed);
  wmap = assumed_map(g.co, g.kh * g.kw, g.ci, a.weights, a.seed + 1);
  if (recursive) ifm_rows = compressed_row_sizes(CompressedRows{g.hi, g.wi, g.ci}, ifm.indices);
}

Cycles SparseTensorCluster::run_submap(ConvSchedule& run, std::uint32_t unit, std::uint32_t submap,
                                       std::uint32_t memory, Cycles hop, Cycles free, SparseUnitTally& tally) {
  const UnitRegion& r = run.plan.compute_regions()[submap];
  const UnitRegion& own = run.plan.partition().regions[submap];
  const bool functional = setup().functional;
  std::vector<std::int64_t> sums;
  if (functional) sums.resize(std::size_t(r.oy1 - r.oy0) * (r.ox1 - r.ox0) * run.plan.shape().co);
  const SparseComputeUnit::Run work = units_[unit]->convolve(run.plan.work(submap, functional ? &sums : nullptr));
  const std::uint64_t nnz = run.plan.cells(submap).nonzeros();
  Cycles first = free;
  std::uint64_t parts = 0;
  const Cycles t = load_and_compute(run, submap, memory, hop, free, work.busy, first, parts);
  const Cycles computed = t + cfg_.pipeline_latency;
  if (setup().spans)
    setup().spans->add(units_[unit]->track(), fmt::format("sparse_conv {}", run.inst.id), first, computed);
  if (run.border) {
    run.border->computed(submap, unit, computed, sums);
    run.placed[submap] = ConvSchedule::Placed{unit, memory};
  } else {
    store_submap(run, submap, memory, sums, computed, tally);
  }
  tally.submaps += 1;
  tally.remote_submaps += memory != unit;
  tally.nonzeros += nnz;
  tally.parts += parts;
  tally.busy += work.busy;
  tally.stats.multipliers.add(work.stats.multipliers);
  tally.stats.arbiter.collisions += work.stats.arbiter.collisions;
  tally.stats.windows += work.stats.windows;
  run.products += work.stats.multipliers.products;
  tally.regions.push_back({{"memory_unit", memory},
                           {"output_rows", {own.oy0, own.oy1}},
                           {"output_cols", {own.ox0, own.ox1}},
                           {"input_nonzeros", nnz}});
  return t;
}

// Double buffering in the memory unit: its k-th part loads into one set while part k-1
// computes, and waits until part k-2 has left that set. A handed-in input is already in
// the memory unit once its pieces have arrived over 920 (HandOff.cpp).
Cycles SparseTensorCluster::load_and_compute(ConvSchedule& run, std::uint32_t submap, std::uint32_t memory, Cycles hop,
                                             Cycles free, Cycles busy, Cycles& first, std::uint64_t& parts) {
  std::vector<Cycles>& loaded_parts = run.part_done[memory];
  if (run.handed_in) {
    first = std::max(free, run.arrival[submap] + hop);
    parts = 1;
    loaded_parts.push_back(first + busy);
    return first + busy;
  }
  const UnitRegion& r = run.plan.compute_regions()[submap];
  FeatureMapMemoryUnit& fm = *fm_units_[memory];
  const std::uint64_t nnz = run.plan.cells(submap).nonzeros();
  const std::uint64_t index_bytes =
      run.ifm_rows ? window_index_bytes(*run.ifm_rows, r.row0, r.rows, r.col0, r.cols, run.plan.shape().wi) : 0;
  parts = run.ifm_rows ? fm.parts_of_bytes(nnz, index_bytes) : fm.parts(nnz);
  const std::uint64_t values_at = run.inst.inputs[0].offset, indices_at = run.inst.inputs[1].offset;
  Cycles t = free;
  for (std::uint64_t p = 0; p < parts; ++p) {
    const std::size_t k = loaded_parts.size();
    const Cycles issue = k < 2 ? run.start : loaded_parts[k - 2];
    const Cycles loaded = run.ifm_rows ? fm.load_bytes_part(values_at, indices_at, nnz, index_bytes, p, parts, issue)
                                       : fm.load_part(values_at, indices_at, nnz, p, parts, issue);
    t = std::max(t, loaded + hop);
    if (p == 0) first = t;
    t += busy * (p + 1) / parts - busy * p / parts;
    loaded_parts.push_back(t);
  }
  return t;
}

void SparseTensorCluster::begin_layer(ConvSchedule& run, std::uint64_t weights) {
  if (compute_net_) {
    run.border = std::make_unique<BorderExchange>(run.plan.shape(), run.plan.partition().regions,
                                                  run.plan.compute_regions(), setup().functional);
    run.placed.resize(run.plan.submaps());
  }
  run.weights_done = weight_memory_->load(run.inst.inputs[2].offset, run.inst.inputs[3].offset, weights, run.start);
  run.done = run.weights_done;
}

void SparseTensorCluster::finish_layer(ConvSchedule& run, SparseConvRun& row, std::uint64_t weights) {
  if (run.border) {
    const std::vector<Cycles> ready = run.border->ready(*compute_net_);
    for (std::uint32_t s = 0; s < run.placed.size(); ++s)
      if (run.placed[s])
        store_submap(run, s, run.placed[s]->memory, run.border->own_sums(s), ready[s], row.units[run.placed[s]->unit]);
  }
  run.done = weight_memory_->finish_parts(run.inst.inputs[2].offset, run.inst.inputs[3].offset, weights,
                                          run.weights_done, run.done);
}

// The back end's steps that wait for every sub-map: pooling, then the compression blocks or
// the pooled map's store.
void SparseTensorCluster::finish_back_end(ConvSchedule& run) {
  AssumedSparsity assumed;
  read_assumed_sparsity(run.inst.params, "assumed_sparsity", assumed);  // checked when the trace was read
  if (run.pool) pool_back_end(run);
  if (run.compressed) store_compressed(run, assumed.ofm, assumed.seed);
  else if (run.pool) store_pooled(run);
}

// The output rectangle requantized to int8 when the op asks for it (int32 sums otherwise),
// per channel bias, channels innermost.
std::vector<std::uint8_t> SparseTensorCluster::requantized(const ConvSchedule& run,
                                                           const std::vector<std::int64_t>& sums) const {
  const TensorOperand& out = run.inst.outputs.at(0);
  std::vector<std::uint8_t> bytes(sums.size() * dtype_size(out.dtype));
  std::vector<std::int32_t> acc(sums.begin(), sums.end());
  const std::vector<std::int32_t> bias = requant_bias(run.inst);
  if (run.inst.params.contains("shift"))
    vector_requant(reinterpret_cast<const std::uint8_t*>(acc.data()), bytes.data(), acc.size(),
                   run.inst.params["shift"].get<std::uint32_t>(), run.inst.params.value("relu", false),
                   bias.empty() ? nullptr : bias.data(), bias.empty() ? 1 : bias.size());
  else
    std::memcpy(bytes.data(), acc.data(), bytes.size());
  return bytes;
}

// The output rectangle returns to its memory unit and leaves row by row (NHWC rows
// of its columns), requantized first when the op asks for int8.
void SparseTensorCluster::store_submap(ConvSchedule& run, std::uint32_t submap, std::uint32_t memory,
                                       const std::vector<std::int64_t>& sums, Cycles computed, SparseUnitTally& tally) {
  if (run.compressed || run.pool) return keep_for_compression(run, submap, memory, sums, computed, tally);
  const UnitRegion& r = run.plan.partition().regions[submap];
  const TensorOperand& out = run.inst.outputs.at(0);
  const std::uint32_t co = run.plan.shape().co, wo = run.plan.shape().wo();
  const std::uint64_t elem = dtype_size(out.dtype), row_bytes = std::uint64_t(r.ox1 - r.ox0) * co * elem;
  const bool functional = setup().functional;
  std::vector<std::uint8_t> bytes;
  if (functional) bytes = requantized(run, sums);
  Cycles stored = computed;
  for (std::uint32_t oy = r.oy0; oy < r.oy1; ++oy) {
    const std::uint64_t address = out.offset + (std::uint64_t(oy) * wo + r.ox0) * co * elem;
    stored = std::max(stored, fm_units_[memory]->store(address, row_bytes,
                                                       functional ? &bytes[(oy - r.oy0) * row_bytes] : nullptr,
                                                       computed));
  }
  run.out_bytes += row_bytes * (r.oy1 - r.oy0);
  run.done = std::max(run.done, stored);
  tally.done = std::max(tally.done, stored);
}

void SparseTensorCluster::add_report_sections(nlohmann::json& sections) const {
  nlohmann::json& rows = sections["sparse_layers"];
  if (rows.is_null()) rows = nlohmann::json::array();
  for (auto& row : layers_.rows(setup().core, cfg_.multipliers)) rows.push_back(std::move(row));
}

namespace {
EngineKind sparse_cluster_kind() {
  EngineKind kind = engine_kind_of<SparseTensorCluster, SparseClusterConfig>(
      "sparse", sparse_cluster_config_section(), sparse_cluster_ops());
  kind.peak_macs_per_cycle = [](const CoreConfig& core) {
    return sparse_peak_macs_per_cycle(core.block<SparseClusterConfig>(SparseClusterConfig::kSection));
  };
  kind.energy = sparse_cluster_energy;
  return kind;
}
}  // namespace

}  // namespace npusim

NPUSIM_REGISTER_ENGINE(npusim::sparse_cluster_kind())
