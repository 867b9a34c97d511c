#include "models/matrix_unit/MatrixUnit.h"

#include <algorithm>

#include "models/engine/EngineRegistry.h"
#include "models/kernel/SimTime.h"
#include "models/matrix_unit/ConvOp.h"
#include "models/matrix_unit/MatrixUnitEnergy.h"
#include "models/matrix_unit/WfoldDatapath.h"
#include "models/matrix_unit/stepped/CycleSteppedMatrixUnit.h"
#include "models/scratchpad/Scratchpad.h"
#include "models/vector_unit/VectorKernels.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {
std::string port_name(const EngineSetup& s, const char* bus) {
  return "core" + std::to_string(s.core) + ".matrix." + bus;
}

// Spreads `total` over `parts` pieces; piece i gets its fair share (no loss).
std::uint64_t share(std::uint64_t total, std::uint64_t parts, std::uint64_t i) {
  return total * (i + 1) / parts - total * i / parts;
}
}  // namespace

bool weights_transposed(const Instruction& inst) { return inst.params.value("transposed_weights", false); }

ConvShape conv_shape_of(const Instruction& inst) {
  const auto& in = inst.inputs.at(0).shape;
  const auto& w = inst.inputs.at(1).shape;
  ConvShape s;
  s.n = static_cast<std::uint32_t>(in.at(0));
  s.hi = static_cast<std::uint32_t>(in.at(1));
  s.wi = static_cast<std::uint32_t>(in.at(2));
  s.ci = static_cast<std::uint32_t>(in.at(3));
  s.co = static_cast<std::uint32_t>(weights_transposed(inst) ? w.at(3) : w.at(0));
  s.kh = static_cast<std::uint32_t>(w.at(1));
  s.kw = static_cast<std::uint32_t>(w.at(2));
  s.read_params(inst.params);
  s.element_bytes = static_cast<std::uint32_t>(dtype_size(inst.inputs.at(0).dtype));
  return s;
}

MatrixUnit::MatrixUnit(sc_core::sc_module_name name, EngineSetup setup, const MatrixUnitConfig& cfg)
    : Engine(name, setup, cfg.queue_depth),
      cfg_(cfg),
      broadcast_bus_("broadcast_bus", port_name(setup, "broadcast_bus"), cfg.broadcast_bus.bytes_per_cycle) {
  // Every slave has its own region of the second storage circuit (seed000 ¶72),
  // so the distribution links of all slaves run side by side.
  for (std::uint32_t s = 0; s < cfg.slaves; ++s) {
    const std::string slave = "slave" + std::to_string(s);
    slaves_.push_back(std::make_unique<SlaveCircuit>(
        slave.c_str(), s, port_name(setup, (slave + ".distribution_link").c_str()), cfg.distribution_bus.bytes_per_cycle));
    leader_.push_back(s);
  }
  register_counters();
}

void MatrixUnit::register_counters() {
  StatGroup& g = stat_group();
  counters_.useful_macs = &g.counter("useful_macs", "MACs", "multiply-accumulates the layers need (formula (1))");
  counters_.issued_macs = &g.counter("issued_macs", "MACs", "MAC slots issued, padding included: cycles x N x Ncu x lanes");
  counters_.data_rows = &g.counter("data_rows", "rows", "feature-map data rows formed and broadcast");
  counters_.broadcast_bytes = &g.counter("broadcast_bytes", "bytes", "bytes on the broadcast bus");
  counters_.weight_rows = &g.counter("weight_rows", "rows", "extended weight rows distributed to slaves");
  counters_.distribution_bytes = &g.counter("distribution_bytes", "bytes", "bytes on the slaves' distribution links");
  counters_.output_bytes = &g.counter("output_bytes", "bytes", "valid results written back");
  counters_.requantized_results = &g.counter("requantized_results", "results",
                                             "int32 accumulators requantized to int8 on the result path");
  counters_.nram_read_requests = &g.counter("nram_read_requests", "requests",
                                            "NRAM requests of the master forming data rows (seed000 §3.4)");
  counters_.write_requests = &g.counter("write_requests", "requests", "write-back requests to NRAM (§3.7)");
  counters_.relay_bytes_written = &g.counter("relay_bytes_written", "bytes", "whole positions written into the relay");
  counters_.relay_bytes_read = &g.counter("relay_bytes_read", "bytes", "data rows read out of the relay");
  counters_.third_buffer_bytes = &g.counter("third_buffer_bytes", "bytes",
                                            "accumulator bytes read and written in the third buffer, each way");
}

void MatrixUnit::count(const WfoldPlan& plan, bool biased) {
  *counters_.useful_macs += plan.macs.useful;
  *counters_.issued_macs += plan.macs.issued;
  *counters_.data_rows += plan.data_rows;
  *counters_.broadcast_bytes += plan.broadcast_bytes;
  *counters_.weight_rows += plan.weight_rows;
  *counters_.distribution_bytes += plan.distribution_bytes;
  *counters_.output_bytes += plan.output_bytes;
  // A bias is one more int32 pass over each result before the shift: counted as a second
  // requantization (docs/energy.md prices each as 4 vector lane ops); the readout pipelines it.
  const std::uint64_t passes = plan.requantized ? (biased ? 2 : 1) : 0;
  *counters_.requantized_results += passes * (plan.output_bytes / plan.output_element_bytes);
  *counters_.nram_read_requests += plan.read_requests;
  *counters_.write_requests += plan.write_requests;
  *counters_.relay_bytes_written += plan.relay_bytes_written;
  *counters_.relay_bytes_read += plan.relay_rows * plan.m_bytes;
  *counters_.third_buffer_bytes += plan.third_buffer_bytes;
}

void MatrixUnit::connect(CoreWiring& wiring) {
  nram_ = &wiring.nram;
  wram_ = &wiring.wram;
}

// The distribution bus is reported as the sum of the slaves' links.
std::vector<PortStats> MatrixUnit::port_stats() const {
  PortStats bus;
  bus.name = port_name(setup(), "distribution_bus");
  bus.kind = "bus";
  for (const auto& slave : slaves_) {
    const PortStats& link = slave->link_stats();
    bus.bytes_per_cycle += link.bytes_per_cycle;
    bus.bytes_read += link.bytes_read;
    bus.bytes_written += link.bytes_written;
    bus.busy = std::max(bus.busy, link.busy);
  }
  return {broadcast_bus_.stats(), bus};
}

void MatrixUnit::add_report_sections(nlohmann::json& sections) const {
  nlohmann::json& rows = sections["matrix_unit_layers"];
  if (rows.is_null()) rows = nlohmann::json::array();
  for (auto& row : layer_stats_.rows(setup().core, cfg_)) rows.push_back(std::move(row));
  nlohmann::json& slaves = sections["matrix_unit_slaves"];
  if (slaves.is_null()) slaves = nlohmann::json::array();
  const double peak = slave_peak_macs_per_cycle(cfg_);  // int8
  for (const auto& slave : slaves_) {
    const SlaveCircuit::Stats& st = slave->stats();
    const PortStats& link = slave->link_stats();
    const double active = double(st.active_cycles);
    slaves.push_back({{"core", setup().core},
                      {"slave", slave->index()},
                      {"output_channels", st.output_channels},
                      {"useful_macs", st.useful_macs},
                      {"weight_bytes", link.bytes_read},
                      {"mac_utilization", active > 0 ? double(st.useful_macs) / (active * peak) : 0.0},
                      {"link_utilization", active > 0 ? double(link.busy) / active : 0.0}});
  }
}

// read_steps and execute both ask for the plan of the same instruction: keep the last one.
const WfoldPlan& MatrixUnit::plan_for(const Instruction& inst) {
  if (last_plan_ && last_plan_id_ == inst.id) return *last_plan_;
  last_plan_ = &find_plan(inst);
  last_plan_id_ = inst.id;
  return *last_plan_;
}

const WfoldPlan& MatrixUnit::find_plan(const Instruction& inst) {
  const ConvShape layer = conv_shape_of(inst);
  const bool requantize = requantizes(inst);
  auto& slot = plans_[wfold_plan_key(layer, requantize)];
  // A conv that requantizes on a core that cannot is refused when the trace is read (ConvOp).
  if (!slot) slot = std::make_unique<WfoldPlan>(plan_wfold_conv(cfg_, layer, requantize));
  return *slot;
}

Engine::Work MatrixUnit::execute(const Instruction& inst) {
  const WfoldPlan& plan = plan_for(inst);
  bool computed = false;
  const std::vector<TileTimes>& times = tile_times(plan, inst, computed);
  const std::uint64_t conflicts_before = nram_->bank_conflicts();
  Schedule schedule = stream_tiles(plan, times, inst);
  const Cycles done = schedule.done;
  layer_stats_.add(plan, done - now_cycles(), nram_->bank_conflicts() - conflicts_before);
  count(plan, inst.params.contains("bias"));
  account_slaves(plan, done - now_cycles());
  publish(inst, std::move(schedule));
  if (setup().functional && !computed) compute(plan, inst);
  wait_until(done);
  return {plan.broadcast_bytes + plan.distribution_bytes + plan.output_bytes, plan.macs.useful};
}

// Where tile `i` sits in the plan's loop order: n outermost, then co rounds,
// then output rows, then wo tiles.
MatrixUnit::TilePlace MatrixUnit::place_of(const WfoldPlan& plan, std::uint64_t i) {
  const std::uint64_t wo_tiles = std::max<std::uint64_t>(1, plan.wo_tiles);
  const std::uint64_t ho = std::max<std::uint64_t>(1, plan.ho);
  const std::uint64_t rounds = std::max<std::uint64_t>(1, plan.co_blocks.size());
  TilePlace t;
  t.last_in_row = i % wo_tiles == wo_tiles - 1;
  t.row = (i / wo_tiles) % ho;
  t.round = (i / (wo_tiles * ho)) % rounds;
  t.last_round = t.round == rounds - 1;
  t.rounds = rounds;
  t.image = i / (wo_tiles * ho * rounds);
  return t;
}

// Tile i reads the input rows under its output row's window (the "complete
// compute unit" of seed004: all kh rows) and the weights of its co round.
std::vector<ReadStep> MatrixUnit::read_steps(const Instruction& inst) {
  const WfoldPlan& plan = plan_for(inst);
  const ConvShape& l = plan.layer;
  const TensorOperand& ifmap = inst.inputs.at(0);
  const TensorOperand& weights = inst.inputs.at(1);
  const std::uint64_t row_bytes = std::uint64_t(l.wi) * l.ci * l.element_bytes;
  const std::uint64_t tiles = std::max<std::uint64_t>(1, plan.tiles);
  std::vector<ReadStep> steps;
  steps.reserve(tiles);
  for (std::uint64_t i = 0; i < tiles; ++i) {
    const TilePlace t = place_of(plan, i);
    const std::int64_t top = std::int64_t(t.row) * l.sh - l.pad_top;
    const std::uint64_t first = std::uint64_t(std::max<std::int64_t>(0, top));
    const std::uint64_t last = std::uint64_t(std::clamp<std::int64_t>(top + l.kh, 1, l.hi));
    const std::uint64_t image = t.image * std::uint64_t(l.hi) * row_bytes;
    ReadStep step;
    step.reads.push_back({&ifmap, ifmap.offset + image + std::min(first, last - 1) * row_bytes,
                          ifmap.offset + image + last * row_bytes});
    step.reads.push_back({&weights, weights.offset, weights.offset + weights.bytes() * (t.round + 1) / t.rounds});
    steps.push_back(std::move(step));
  }
  return steps;
}

// The plan's tile pipeline gives each tile's contention-free times; here they are walked
// while each tile's data rows, weight rows and results are booked on the shared ports. Two
// delays are carried: the compute side's (a busy NRAM port or bus, or a staged tile waiting
// for the producer stages it reads, delays that tile and every later one) and the write-back
// port's (a late write delays the later writes, and the tile D later that waits for its
// result set). Only the last co round finishes output rows: earlier rounds hold results for
// other channels of the same pixels.
Engine::Schedule MatrixUnit::stream_tiles(const WfoldPlan& plan, const std::vector<TileTimes>& times,
                                          const Instruction& inst) {
  const Cycles start = now_cycles();
  regroup_links(start);
  live_splits_ = 0;
  const std::uint64_t tiles = times.size();
  const std::uint64_t sets = third_buffer_sets(plan, cfg_);
  const TensorOperand& ifmap = inst.inputs.at(0);
  const TensorOperand& ofmap = inst.outputs.at(0);
  const std::uint64_t out_rows = std::uint64_t(std::max<std::uint32_t>(1, plan.layer.n)) * std::max<std::uint32_t>(1, plan.ho);
  Schedule schedule;
  schedule.tile_bytes = ofmap.bytes() / out_rows;
  schedule.reads.reserve(tiles);
  Cycles shift = 0, port_late = 0, done = start;
  set_late_.assign(tiles, 0);
  for (std::uint64_t i = 0; i < tiles; ++i) {
    const TileTimes& planned = times[i];
    const TilePlace place = place_of(plan, i);
    const Cycles now = now_cycles();
    if (i >= sets) {
      // The set this tile needs came back late: its first compute (with one set, its first
      // window) waits unless the plan left it slack.
      const Cycles gate = sets == 1 ? planned.fill_start : planned.first_compute;
      const Cycles freed = times[i - sets].write_end + set_late_[i - sets];
      if (freed > gate) shift = std::max(shift, freed - gate);
    }
    const Cycles begin = std::max(start + planned.fill_start + shift, step_gate(i));
    shift = begin - (start + planned.fill_start);
    const std::uint64_t rows = share(plan.broadcast_bytes, tiles, i);
    const Cycles inputs = std::max(read_inputs(plan, ifmap, now, begin, share(plan.read_requests, tiles, i), rows),
                                   broadcast_bus_.send(now, begin, rows));
    // Each slave reads its own WRAM region (seed000 ¶72) over its own link, so weight
    // distribution is limited by the distribution links, not by the DMA-facing WRAM port.
    const Cycles weights_in =
        distribute_weights(plan, place.round, share(plan.distribution_bytes, tiles, i), now, begin);
    const Cycles compute_end = std::max({start + planned.compute_end + shift, inputs, weights_in});
    shift = compute_end - (start + planned.compute_end);
    // The port's own requests: NRAM's access latency follows them and holds nothing back.
    const Cycles write_start = start + planned.write_start + std::max(shift, port_late);
    const Cycles written = nram_->access(now, write_start, ofmap.offset, share(plan.output_bytes, tiles, i), true);
    const Cycles port_end = written - nram_->access_latency();
    const Cycles planned_port_end = start + planned.write_end - cfg_.write_back.latency;
    port_late = port_end > planned_port_end ? port_end - planned_port_end : 0;
    set_late_[i] = port_late;
    const Cycles visible = std::max({written, start + planned.write_end + port_late, done});
    done = visible;
    schedule.reads.emplace_back(begin, std::max(inputs, weights_in));
    if (place.last_round && place.last_in_row) {
      const std::uint64_t finished_rows = place.image * std::max<std::uint32_t>(1, plan.ho) + place.row + 1;
      const std::uint64_t bytes = finished_rows == out_rows ? ofmap.bytes() : finished_rows * schedule.tile_bytes;
      schedule.written.push_back({visible, bytes});
    }
  }
  schedule.done = done;
  schedule.release = schedule.done;
  if (schedule.written.empty() || schedule.written.back().bytes != ofmap.bytes())
    schedule.written.push_back({schedule.done, ofmap.bytes()});
  return schedule;
}

// A tile's reads of its data rows on NRAM. Banked NRAM sees strided reads as what they are:
// `requests` reads of Pci bytes one position (ci') apart, each on its own bank (§3.4).
Cycles MatrixUnit::read_inputs(const WfoldPlan& plan, const TensorOperand& ifmap, Cycles now, Cycles begin,
                               std::uint64_t requests, std::uint64_t bytes) {
  if (!nram_->banked() || plan.reads.mode != DataRowRead::Strided)
    return nram_->access(now, begin, ifmap.offset, bytes, false);
  return nram_->access_strided(now, begin, ifmap.offset, requests, plan.pci.bytes, plan.reads.stride_bytes, false);
}

// The tiles' contention-free times under the configured model. The cycle-stepped reference
// steps each shape once in timing runs; in functional runs it steps every instruction with
// its tensors and computes the outputs through its own buffers (`computed`).
const std::vector<TileTimes>& MatrixUnit::tile_times(const WfoldPlan& plan, const Instruction& inst, bool& computed) {
  if (cfg_.timing_model == MatrixTimingModel::Fast) return plan.pipeline.tiles;
  const ResultRequant requant = result_requant_of(plan, inst);
  if (setup().functional) {
    const SteppedConvData data{nram_->data(inst.inputs.at(0).offset), wram_->data(inst.inputs.at(1).offset),
                               nram_->data(inst.outputs.at(0).offset)};
    stepped_scratch_ = tile_times_of(run_cycle_stepped_conv(cfg_, plan, requant, data));
    computed = true;
    return stepped_scratch_;
  }
  auto& slot = stepped_times_[&plan];
  if (slot.empty()) slot = tile_times_of(run_cycle_stepped_conv(cfg_, plan, requant));
  return slot;
}

void MatrixUnit::compute(const WfoldPlan& plan, const Instruction& inst) {
  const std::uint8_t* ifmap = nram_->data(inst.inputs.at(0).offset);
  const std::uint8_t* weights = wram_->data(inst.inputs.at(1).offset);
  std::uint8_t* out = nram_->data(inst.outputs.at(0).offset);
  if (weights_transposed(inst)) {
    // The master circuit reads a [ci, co] kernel column by column (assumed free, README.md).
    const std::uint32_t ci = plan.layer.ci, co = plan.layer.co, size = std::uint32_t(dtype_size(inst.inputs.at(1).dtype));
    transposed_.resize(std::uint64_t(ci) * co * size);
    for (std::uint32_t i = 0; i < ci; ++i)
      for (std::uint32_t o = 0; o < co; ++o)
        std::copy_n(weights + (std::uint64_t(i) * co + o) * size, size,
                    transposed_.data() + (std::uint64_t(o) * ci + i) * size);
    weights = transposed_.data();
  }
  if (inst.inputs.at(0).dtype == DType::Float32) {
    run_wfold_conv(plan, plan.layer, reinterpret_cast<const float*>(ifmap), reinterpret_cast<const float*>(weights),
                   reinterpret_cast<float*>(out));
    return;
  }
  if (!plan.requantized) {
    run_wfold_conv(plan, plan.layer, reinterpret_cast<const std::int8_t*>(ifmap),
                   reinterpret_cast<const std::int8_t*>(weights), reinterpret_cast<std::int32_t*>(out));
    return;
  }
  // The readout requantizes each accumulator on its way to NRAM, by the vector unit's rule.
  const std::uint64_t elements = inst.outputs.at(0).elements();
  accumulators_.resize(elements);
  run_wfold_conv(plan, plan.layer, reinterpret_cast<const std::int8_t*>(ifmap),
                 reinterpret_cast<const std::int8_t*>(weights), accumulators_.data());
  const ResultRequant requant = result_requant_of(plan, inst);
  vector_requant(reinterpret_cast<const std::uint8_t*>(accumulators_.data()), out, elements, requant.shift,
                 requant.relu, requant.bias.empty() ? nullptr : requant.bias.data(),
                 requant.bias.empty() ? 1 : requant.bias.size());
}

bool requantizes(const Instruction& inst) { return inst.params.contains("shift"); }

ResultRequant result_requant_of(const WfoldPlan& plan, const Instruction& inst) {
  return {plan.requantized, param_value(inst.params, "shift", 0), inst.params.value("relu", false),
          requant_bias(inst)};
}

std::vector<TileTimes> tile_times_of(const SteppedConvRun& run) {
  std::vector<TileTimes> times;
  times.reserve(run.tiles.size());
  for (const SteppedTileTimes& t : run.tiles)
    times.push_back({t.fill_start, t.first_compute, t.last_compute + 1, t.write_start, t.write_end});
  return times;
}

}  // namespace npusim

namespace npusim {

namespace {
EngineKind matrix_unit_kind() {
  EngineKind kind =
      engine_kind_of<MatrixUnit, MatrixUnitConfig>("matrix", matrix_unit_config_section(), matrix_unit_ops());
  kind.peak_macs_per_cycle = [](const CoreConfig& core) {
    return peak_macs_per_cycle(core.block<MatrixUnitConfig>(MatrixUnitConfig::kSection));  // int8
  };
  kind.energy = matrix_unit_energy;
  return kind;
}
}  // namespace

}  // namespace npusim

NPUSIM_REGISTER_ENGINE(npusim::matrix_unit_kind())
