#include "models/vector_unit/VectorUnit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

#include "models/engine/EngineRegistry.h"
#include "models/kernel/SimTime.h"
#include "models/scratchpad/Scratchpad.h"
#include "models/vector_unit/VectorKernels.h"
#include "models/vector_unit/VectorOps.h"
#include "models/vector_unit/RowKernels.h"
#include "sim/trace/OpChecks.h"
#include "models/vector_unit/ActivationKernels.h"
#include "models/vector_unit/UpsampleKernels.h"

namespace npusim {

// Window of a pool or dwconv instruction; the kernel size of dwconv comes from its weights [kh kw c].
ChannelWindow window_of(const Instruction& inst) {
  const auto& x = inst.inputs.at(0).shape;
  ChannelWindow g;
  g.n = std::uint32_t(x.at(0));
  g.hi = std::uint32_t(x.at(1));
  g.wi = std::uint32_t(x.at(2));
  g.c = std::uint32_t(x.at(3));
  const bool weighted = inst.inputs.size() > 1;
  g.kh = weighted ? std::uint32_t(inst.inputs[1].shape.at(0)) : param_element(inst.params, "kernel", 0, 1);
  g.kw = weighted ? std::uint32_t(inst.inputs[1].shape.at(1)) : param_element(inst.params, "kernel", 1, 1);
  g.read_params(inst.params);
  return g;
}

std::uint64_t window_taps(const Instruction& inst) {
  if (inst.op != "pool" && inst.op != "dwconv") return 0;
  const ChannelWindow g = window_of(inst);
  return std::uint64_t(g.kh) * g.kw;
}

VectorUnit::VectorUnit(sc_core::sc_module_name name, EngineSetup setup, const VectorUnitConfig& cfg)
    : Engine(name, std::move(setup), cfg.queue_depth), cfg_(cfg) {
  lane_ops_ = &stat_group().counter("lane_ops", "lane ops",
                                    "int8 lane operations: the widest operand's bytes, or window taps x outputs");
}

void VectorUnit::connect(CoreWiring& wiring) { nram_ = &wiring.nram; }

namespace {
// The unit streams its output in chunks of whole rows, at most this many, so a
// staged consumer can follow it and it can follow a staged producer.
constexpr std::uint64_t kMaxChunks = 64;

// Byte range of chunk [first, last) of the output, mapped onto `t` (elementwise).
std::pair<std::uint64_t, std::uint64_t> slice(const TensorOperand& t, const TensorOperand& out, std::uint64_t first,
                                              std::uint64_t last) {
  return {t.offset + t.bytes() * first / out.bytes(), t.offset + t.bytes() * last / out.bytes()};
}
}  // namespace

std::vector<std::uint64_t> VectorUnit::chunk_bounds(const TensorOperand& out) const {
  const std::uint64_t row = granule_bytes(out, "rows", 0);
  const std::uint64_t rows = (out.bytes() + row - 1) / row;
  const std::uint64_t per_chunk = (rows + kMaxChunks - 1) / kMaxChunks;
  std::vector<std::uint64_t> bounds{0};
  for (std::uint64_t r = per_chunk; r < rows; r += per_chunk) bounds.push_back(r * row);
  bounds.push_back(out.bytes());
  return bounds;
}

// Input rows under the windows of output rows [first, last) of a pool or
// dwconv, as a byte range of its feature map (rows are counted over n * ho).
static std::pair<std::uint64_t, std::uint64_t> window_rows(const Instruction& inst, std::uint64_t first, std::uint64_t last) {
  const ChannelWindow g = window_of(inst);
  const TensorOperand& in = inst.inputs.at(0);
  const std::uint64_t ho = std::max<std::uint64_t>(1, g.ho());
  const std::uint64_t row_bytes = std::uint64_t(g.wi) * g.c * dtype_size(in.dtype);
  auto input_row = [&](std::uint64_t r, bool end) {
    const std::int64_t top = std::int64_t(r % ho) * g.sh - g.pad_top + (end ? std::int64_t(g.kh) : 0);
    return (r / ho) * g.hi + std::uint64_t(std::clamp<std::int64_t>(top, 0, g.hi));
  };
  return {in.offset + input_row(first, false) * row_bytes, in.offset + input_row(last - 1, true) * row_bytes};
}

std::vector<ReadStep> VectorUnit::read_steps(const Instruction& inst) {
  const TensorOperand& out = inst.outputs.at(0);
  const auto bounds = chunk_bounds(out);
  const bool windowed = window_taps(inst) > 0;
  const std::uint64_t out_row = granule_bytes(out, "rows", 0);
  std::vector<ReadStep> steps;
  for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
    ReadStep step;
    for (std::size_t i = 0; i < inst.inputs.size(); ++i) {
      const TensorOperand& in = inst.inputs[i];
      // Element-wise ops read the matching slice; a window op reads the rows
      // under its windows (the halo too) and its weights whole.
      auto [begin, end] = slice(in, out, bounds[c], bounds[c + 1]);
      if (inst.op == "upsample") std::tie(begin, end) = std::make_pair(in.offset, in.end());  // rows by coordinates
      if (windowed) {
        std::tie(begin, end) = i == 0 ? window_rows(inst, bounds[c] / out_row, (bounds[c + 1] + out_row - 1) / out_row)
                                      : std::make_pair(in.offset, in.end());
      }
      step.reads.push_back({&in, begin, end});
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

// Lane ops of a transformer op, an activation or mul: its configured cost per element
// (0 for other ops).
std::uint64_t VectorUnit::row_op_lane_ops(const Instruction& inst) const {
  static const std::map<std::string, double VectorUnitConfig::*> per_element = {
      {"softmax", &VectorUnitConfig::softmax_lane_ops}, {"layernorm", &VectorUnitConfig::layernorm_lane_ops},
      {"gelu", &VectorUnitConfig::gelu_lane_ops},       {"sigmoid", &VectorUnitConfig::sigmoid_lane_ops},
      {"hardsigmoid", &VectorUnitConfig::hardsigmoid_lane_ops},
      {"hardswish", &VectorUnitConfig::hardswish_lane_ops},
      {"silu", &VectorUnitConfig::silu_lane_ops},       {"tanh", &VectorUnitConfig::tanh_lane_ops},
      {"mul", &VectorUnitConfig::mul_lane_ops}};
  const auto it = per_element.find(inst.op);
  double per = it == per_element.end() ? 0 : cfg_.*(it->second);
  // A nearest upsample is a copy (one lane op per output byte, the default); bilinear weighs four taps.
  if (inst.op == "upsample" && inst.params.value("mode", std::string()) == "bilinear") per = cfg_.bilinear_lane_ops;
  return std::uint64_t(std::ceil(per * double(inst.outputs.at(0).elements())));
}

Engine::Work VectorUnit::execute(const Instruction& inst) {
  const Cycles now = now_cycles();
  std::uint64_t bytes_in = 0;
  for (const auto& in : inst.inputs) bytes_in += in.bytes();
  const TensorOperand& out = inst.outputs.at(0);
  const auto bounds = chunk_bounds(out);
  // One int8 lane per byte of width: wider inputs (pool) and window taps (pool, dwconv) cost more lane-ops.
  std::uint64_t lane_ops = out.bytes();
  for (const auto& in : inst.inputs) lane_ops = std::max(lane_ops, in.bytes());
  // A requant's bias: one more int32 add per result, on 4 byte lanes, before the shift.
  if (inst.op == "requant" && inst.params.contains("bias")) lane_ops += inst.inputs.at(0).bytes();
  const std::uint64_t window_ops = window_taps(inst) * out.elements() + row_op_lane_ops(inst);
  const double ops_per_byte = double(std::max(lane_ops, window_ops)) / double(out.bytes());
  *lane_ops_ += std::max(lane_ops, window_ops);
  Schedule schedule;
  schedule.tile_bytes = bounds.size() > 1 ? bounds[1] : out.bytes();
  // Chunks go through the pipeline back to back; a staged chunk also waits for
  // the producer stages it reads. Operands stream out of NRAM and results back.
  Cycles begin = now, done = now;
  for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
    begin = std::max(begin, step_gate(c));
    Cycles operands_ready = begin;
    for (const auto& in : inst.inputs) {
      auto [first, last] = slice(in, out, bounds[c], bounds[c + 1]);
      operands_ready = std::max(operands_ready, nram_->access(now, begin, first, last - first, false));
    }
    const std::uint64_t bytes = bounds[c + 1] - bounds[c];
    const Cycles stream = static_cast<Cycles>(std::ceil(double(bytes) * ops_per_byte / cfg_.bytes_per_cycle));
    const Cycles written = nram_->access(now, begin + cfg_.pipeline_latency, out.offset + bounds[c], bytes, true);
    done = std::max({done, operands_ready, begin + stream + cfg_.pipeline_latency, written});
    schedule.reads.emplace_back(begin, operands_ready);
    schedule.written.push_back({done, bounds[c + 1]});
    begin += stream;
  }
  schedule.release = done;
  schedule.done = done;
  publish(inst, std::move(schedule));
  if (setup().functional) compute(inst);
  wait_until(done);
  return {bytes_in + out.bytes(), inst.op == "dwconv" ? window_ops : 0};
}

void VectorUnit::compute(const Instruction& inst) {
  const TensorOperand& out = inst.outputs.at(0);
  const std::uint8_t* a = nram_->data(inst.inputs.at(0).offset);
  std::uint8_t* dst = nram_->data(out.offset);
  if (inst.op == "relu") {
    vector_relu(out.dtype, a, dst, out.elements());
  } else if (inst.op == "add") {
    vector_add(out.dtype, a, nram_->data(inst.inputs.at(1).offset), dst, out.elements());
  } else if (inst.op == "requant") {
    const std::vector<std::int32_t> bias = requant_bias(inst);
    vector_requant(a, dst, out.elements(), param_value(inst.params, "shift", 0), inst.params.value("relu", false),
                   bias.empty() ? nullptr : bias.data(), bias.empty() ? 1 : bias.size());
  } else if (inst.op == "pool") {
    vector_pool(window_of(inst), inst.params.value("mode", std::string("max")) == "max", a, dst);
  } else if (inst.op == "dwconv") {
    vector_depthwise(window_of(inst), a, nram_->data(inst.inputs.at(1).offset), dst);
  } else if (inst.op == "softmax" || inst.op == "layernorm" || inst.op == "gelu") {
    compute_row_op(inst, reinterpret_cast<const std::int8_t*>(a), reinterpret_cast<std::int8_t*>(dst));
  } else if (is_activation_op(inst.op) || inst.op == "mul" || inst.op == "mask") {
    compute_activation(inst, reinterpret_cast<const std::int8_t*>(a), reinterpret_cast<std::int8_t*>(dst));
  } else if (inst.op == "upsample") {
    vector_upsample(upsample_band_of(inst), reinterpret_cast<const std::int8_t*>(a), reinterpret_cast<std::int8_t*>(dst));
  } else {
    throw std::logic_error("vector unit has no operation '" + inst.op + "'");
  }
}

void VectorUnit::compute_row_op(const Instruction& inst, const std::int8_t* src, std::int8_t* dst) {
  const TensorOperand& out = inst.outputs.at(0);
  const auto c = std::uint32_t(out.shape.back());
  const std::uint64_t rows = out.elements() / c;
  const auto frac_bits = param_value(inst.params, "frac_bits", 4);
  if (inst.op == "softmax")
    vector_softmax(src, dst, rows, c, param_value(inst.params, "segment", c), frac_bits);
  else if (inst.op == "layernorm")
    vector_layernorm(src, dst, rows, c);
  else
    vector_gelu(src, dst, out.elements(), frac_bits);
}

void VectorUnit::compute_activation(const Instruction& inst, const std::int8_t* src, std::int8_t* dst) {
  const TensorOperand& out = inst.outputs.at(0);
  if (is_activation_op(inst.op))
    return vector_activation(inst.op, src, dst, out.elements(), param_value(inst.params, "frac_bits", 4));
  const TensorOperand& b = inst.inputs.at(1);
  if (inst.op == "mask")
    return vector_mask(src, reinterpret_cast<const std::int8_t*>(nram_->data(b.offset)), dst, out.elements(),
                       std::int8_t(inst.params.value("fill", -128)));
  const bool gate = b.shape != out.shape;  // [n, 1, 1, c]: one value per channel of each image
  vector_mul(src, reinterpret_cast<const std::int8_t*>(nram_->data(b.offset)), dst, out.elements(),
             gate ? b.shape.back() : 0, out.elements() / out.shape.front(), param_value(inst.params, "shift", 0));
}

}  // namespace npusim

namespace npusim {

namespace {
EngineKind vector_unit_kind() {
  EngineKind kind = engine_kind_of<VectorUnit, VectorUnitConfig>("vector", vector_unit_config_section(), vector_ops());
  // One lane per byte of throughput; operands and results are priced at NRAM.
  kind.energy = [](const CoreConfig& core) {
    EngineEnergy e;
    e.actions = {{"vector", "lane_ops", {"vector", "lane_op"}}};
    e.parts = {{"vector", core.block<VectorUnitConfig>(VectorUnitConfig::kSection).bytes_per_cycle}};
    return e;
  };
  return kind;
}
}  // namespace

}  // namespace npusim

NPUSIM_REGISTER_ENGINE(npusim::vector_unit_kind())
