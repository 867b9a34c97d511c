#include "models/fetch_ml/FetchMlStateMachine.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "models/engine/EngineRegistry.h"
#include "models/fetch_ml/FetchMlOps.h"
#include "models/interconnect/Interconnect.h"
#include "models/kernel/SimTime.h"
#include "models/kernel/TlmTransfer.h"
#include "models/scratchpad/Scratchpad.h"
#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {
std::string region_text(std::uint64_t offset, const Shape& shape) {
  return fmt::format("offset {} shape {}", offset, shape_text(shape));
}
}  // namespace

const char* state_name(FetchMlStateMachine::State s) {
  switch (s) {
    case FetchMlStateMachine::State::Idle: return "idle";
    case FetchMlStateMachine::State::Initialized: return "initialized";
    case FetchMlStateMachine::State::Fetching: return "fetching";
    case FetchMlStateMachine::State::Streaming: return "streaming";
    case FetchMlStateMachine::State::Done: return "done";
  }
  return "?";
}

FetchMlStateMachine::FetchMlStateMachine(sc_core::sc_module_name name, EngineSetup setup, const FetchMlConfig& cfg)
    : Engine(name, std::move(setup), cfg.queue_depth),
      dram_port("dram_port"),
      cluster_port("cluster_port"),
      register_file_port("register_file_port"),
      cfg_(cfg),
      address_generator_("address_generator"),
      cache_("cache", {cfg.cache_bytes, cfg.cache_line_bytes, cfg.cache_ways}, Engine::setup().functional) {
  StatGroup& g = stat_group();
  counters_.register_writes = &g.counter("register_writes", "count", "ml_set control-register writes");
  counters_.fetches = &g.counter("fetches", "count", "fetch_ml instructions executed");
  counters_.ifm_bytes = &g.counter("ifm_bytes", "bytes", "image bytes fetched from memory");
  counters_.weight_bytes = &g.counter("weight_bytes", "bytes", "filter bytes fetched from memory");
  counters_.naive_im2col_bytes =
      &g.counter("naive_im2col_bytes", "bytes", "bytes a host-side im2col matrix of the same tiles would hold");
  counters_.rf_write_bytes = &g.counter("rf_write_bytes", "bytes", "bytes written into the register file");
  counters_.return_bytes = &g.counter("return_bytes", "bytes", "result bytes returned to memory");
  counters_.requests = &g.counter("requests", "count", "memory requests issued by the address generator");
  counters_.memory_bytes = &g.counter("memory_bytes", "bytes", "bytes fetches and preloads read from memory");
  counters_.cache_hits = &g.counter("cache_hits", "lines", "lines fetches found in the fetch-path cache");
  counters_.cache_misses = &g.counter("cache_misses", "lines", "lines fetches read from memory through the cache");
  counters_.cache_hit_bytes = &g.counter("cache_hit_bytes", "bytes", "requested bytes the cache served to fetches");
  counters_.cache_fill_bytes = &g.counter("cache_fill_bytes", "bytes", "bytes written into the cache's lines");
  counters_.preloads = &g.counter("preloads", "count", "ml_preload instructions executed");
  counters_.preload_bytes = &g.counter("preload_bytes", "bytes", "bytes ml_preload read from memory into the cache");
  counters_.auto_fetches = &g.counter("auto_fetches", "count", "fetches the state machine launched itself");
}

void FetchMlStateMachine::connect(CoreWiring& wiring) {
  wiring.interconnect.connect(dram_port, wiring.cluster);
  if (wiring.cluster_cache) cluster_port.bind(wiring.cluster_cache->socket);
  register_file_ = wiring.register_file;
  register_file_port.bind(register_file_->socket);
}

Cycles FetchMlStateMachine::register_file_transfer(tlm::tlm_command cmd, std::uint64_t offset, std::uint64_t bytes,
                                                   std::uint8_t* data, Cycles earliest) {
  return tlm_transfer(*register_file_port.operator->(), cmd, offset, bytes, data, earliest, name());
}

std::string FetchMlStateMachine::state_label() const { return state_name(state_); }

const FetchedTile* FetchMlStateMachine::fetched_at(std::uint64_t offset) const {
  auto it = fetched_.find(offset);
  return it == fetched_.end() ? nullptr : &it->second;
}

tlm::tlm_fw_transport_if<>& FetchMlStateMachine::port_for(AddressSpace space) {
  if (space == AddressSpace::Cluster) return *cluster_port.operator->();
  return *dram_port.operator->();
}

Engine::Work FetchMlStateMachine::execute(const Instruction& inst) {
  if (inst.op == "ml_set") return set_register(inst);
  if (inst.op == "fetch_ml") return fetch(inst);
  if (inst.op == "ml_preload") return preload(inst);
  return return_results(inst);
}

// Initialization phase: registers only, no memory request (seed003 ¶[0046]). Registers
// set for a new layer also drop the cache's lines and restart the walk: other engines
// may since have rewritten the memory behind them.
Engine::Work FetchMlStateMachine::set_register(const Instruction& inst) {
  const auto r = control_register_named(inst.params.at("register").get<std::string>());
  const std::uint64_t value = inst.params.at("value").get<std::uint64_t>();
  if (*r == ControlRegister::AutoFetch && value == 1 && !cfg_.auto_fetch)
    fail_instruction(inst, "this state machine cannot launch fetches itself: set /core/fetch_ml/auto_fetch to true "
                           "in the config, or leave the auto_fetch register 0");
  registers_.set(*r, value);
  cache_.invalidate_all();
  last_run_.reset();
  ++*counters_.register_writes;
  returned_since_init_ = 0;
  enter(registers_.complete() ? State::Initialized : State::Idle);
  wait_until(now_cycles() + cfg_.set_cycles);
  return {};
}

std::pair<ConvShape, MlTile> FetchMlStateMachine::decode(const Instruction& inst) const {
  MlTile tile;
  read_ml_tile(inst.params, tile);  // checked by the op when the trace was read
  return {initialized_layer(inst), tile};
}

ConvShape FetchMlStateMachine::initialized_layer(const Instruction& inst) const {
  if (!registers_.complete())
    fail_instruction(inst, fmt::format("{} before the state machine is initialized: set {} first (ml_set)", inst.op,
                                      fmt::join(registers_.missing(), ", ")));
  ConvShape g = registers_.conv_shape();
  if (!g.kernel_fits())
    fail_instruction(inst, fmt::format("the control registers describe a {}x{} filter that does not fit the padded "
                                      "{}x{} image",
                                      g.kh, g.kw, g.padded_hi(), g.padded_wi()));
  return g;
}

// One request per contiguous run of the tensor, cut to request_bytes and issued at
// bytes_per_cycle: a filter block narrower than the output's channels returns as one
// run per position. Reads are fetches, writes are returns.
Cycles FetchMlStateMachine::memory_transfer(tlm::tlm_command cmd, const TensorOperand& t, std::uint8_t* data,
                                            Cycles start) {
  Cycles done = start, issue = start;
  for_each_run(t, 0, t.bytes(), [&](std::uint64_t address, std::uint64_t first, std::uint64_t count) {
    for (std::uint64_t at = 0; at < count; at += cfg_.request_bytes) {
      const std::uint64_t n = std::min(cfg_.request_bytes, count - at);
      done = std::max(done, tlm_transfer(port_for(t.space), cmd, address + at, n, data ? data + first + at : nullptr,
                                         issue, name()));
      issue += Cycles(std::ceil(double(n) / cfg_.bytes_per_cycle));
      ++*counters_.requests;
      if (cmd == tlm::TLM_READ_COMMAND) address_generator_.count_fetch(1);
      else address_generator_.count_return(1);
    }
  });
  return done;
}

// The region fetch_ml (or ml_preload) must read, as the address generator walks it from the
// registers: the input rows its positions need (ifm) or its filters. Refuses a source elsewhere.
FetchMlStateMachine::Source FetchMlStateMachine::expected_source(const Instruction& inst, const ConvShape& g,
                                                                 const MlTile& tile, bool ifm) const {
  const std::uint32_t eb = registers_.element_bytes();
  const std::uint64_t K = std::uint64_t(g.kh) * g.kw * g.ci;
  Source s;
  if (ifm) {
    const PositionRange& p = tile.positions;
    const std::uint64_t positions = std::uint64_t(g.ho()) * g.wo();
    if (p.image >= g.n || p.first + p.count > positions)
      fail_instruction(inst, fmt::format("positions [{}, {}) of image {} are past the end of the {}x{} output of "
                                        "{} image(s) the registers describe",
                                        p.first, p.first + p.count, p.image, g.ho(), g.wo(), g.n));
    s.rows = AddressGenerator::input_rows(g, p);
    s.offset = registers_.get(ControlRegister::IfmBase) + (std::uint64_t(p.image) * g.hi + s.rows.first) * g.wi * g.ci * eb;
    s.shape = {s.rows.count, g.wi, g.ci};
  } else {
    if (tile.first_filter + tile.filters > g.co)
      fail_instruction(inst, fmt::format("filters [{}, {}) are past the {} filters the registers describe",
                                        tile.first_filter, tile.first_filter + tile.filters, g.co));
    s.offset = registers_.get(ControlRegister::WeightBase) + tile.first_filter * K * eb;
    s.shape = {tile.filters, g.kh, g.kw, g.ci};
  }
  const TensorOperand& src = inst.inputs.at(0);
  if (src.offset != s.offset || src.shape != s.shape)
    fail_instruction(inst, fmt::format("inputs[0] is {} but the address generator walks {} for this tile",
                                      region_text(src.offset, src.shape), region_text(s.offset, s.shape)));
  return s;
}

// What a fetch leaves in the register file: its source's rows, compact or unrolled.
FetchedTile FetchMlStateMachine::expected_fetch(const Instruction& inst, const ConvShape& g, const MlTile& tile,
                                                bool ifm) const {
  const TensorOperand& dst = inst.outputs.at(0);
  FetchedTile fetched;
  fetched.layer = g;
  fetched.rows = expected_source(inst, g, tile, ifm).rows;
  if (!ifm) return fetched;
  fetched.compact = dst.shape.size() == 3;
  const std::uint64_t K = std::uint64_t(g.kh) * g.kw * g.ci;
  if (!fetched.compact && dst.shape != Shape{tile.positions.count, K})
    fail_instruction(inst, fmt::format("an unrolled tile of {} positions is [{}, {}], got outputs[0] shape {}",
                                      tile.positions.count, tile.positions.count, K, shape_text(dst.shape)));
  return fetched;
}

// Reading A in functional runs: the im2col matrix of the tile's positions, built from the
// fetched image rows on the way into the register file.
std::uint8_t* FetchMlStateMachine::unroll(const FetchedTile& fetched, const MlTile& tile,
                                                std::uint64_t bytes) {
  const ConvShape& g = fetched.layer;
  const std::uint32_t eb = registers_.element_bytes();
  const std::uint64_t K = std::uint64_t(g.kh) * g.kw * g.ci;
  unrolled_.assign(bytes, 0);
  for (std::uint64_t j = 0; j < tile.positions.count; ++j)
    for (std::uint64_t k = 0; k < K; ++k) {
      const std::int64_t e = AddressGenerator::patch_element(g, fetched.rows, tile.positions.first + j, k);
      if (e >= 0) std::memcpy(&unrolled_[(j * K + k) * eb], staging_.data() + std::uint64_t(e) * eb, eb);
    }
  return unrolled_.data();
}

// Fetch and streaming phases: the address generator checks that the trace reads
// what the registers say, fetches it, and fills the register file.
Engine::Work FetchMlStateMachine::fetch(const Instruction& inst) {
  const auto [g, tile] = decode(inst);
  const TensorOperand& src = inst.inputs.at(0);
  const TensorOperand& dst = inst.outputs.at(0);
  const std::uint32_t eb = registers_.element_bytes();
  if (dtype_size(src.dtype) != eb)
    fail_instruction(inst, fmt::format("inputs[0] is {} but ifm_depth_bits is {}", dtype_name(src.dtype), eb * 8));
  const bool ifm = inst.params.at("data") == "ifm";
  FetchedTile fetched = expected_fetch(inst, g, tile, ifm);
  const bool launched_by_hardware = inst.params.value("auto", false);
  if (launched_by_hardware) check_auto(inst, g, tile, ifm);
  note_walk(tile, ifm);

  const bool functional = setup().functional;
  if (functional) staging_.assign(src.bytes(), 0);
  const Cycles start = now_cycles() + cfg_.setup_cycles;
  CacheUse use;
  std::uint64_t memory_bytes = 0;
  const Cycles arrived = read_source(src, functional ? staging_.data() : nullptr, start,
                                     inst.params.value("cache", std::string("keep")) == "keep", use, memory_bytes);
  std::uint8_t* tile_bytes = functional ? staging_.data() : nullptr;
  if (functional && ifm && !fetched.compact) tile_bytes = unroll(fetched, tile, dst.bytes());
  const Cycles done = register_file_transfer(tlm::TLM_WRITE_COMMAND, dst.offset, dst.bytes(), tile_bytes, arrived);
  fetched.bytes = dst.bytes();
  fetched_[dst.offset] = fetched;

  *counters_.cache_hits += use.hits;
  *counters_.cache_misses += use.misses;
  *counters_.cache_hit_bytes += use.hit_bytes;
  ++*counters_.fetches;
  *counters_.auto_fetches += launched_by_hardware;
  *(ifm ? counters_.ifm_bytes : counters_.weight_bytes) += src.bytes();
  if (ifm) *counters_.naive_im2col_bytes += tile.positions.count * std::uint64_t(g.kh) * g.kw * g.ci * eb;
  *counters_.rf_write_bytes += dst.bytes();
  enter(state_ == State::Initialized ? State::Fetching : State::Streaming);
  wait_until(done);
  return {memory_bytes, 0, use, launched_by_hardware};
}

// The return path: results leave the register file for their NHWC addresses.
Engine::Work FetchMlStateMachine::return_results(const Instruction& inst) {
  const auto [g, tile] = decode(inst);
  const TensorOperand& src = inst.inputs.at(0);
  const TensorOperand& dst = inst.outputs.at(0);
  const PositionRange& p = tile.positions;
  const std::uint64_t positions = std::uint64_t(g.ho()) * g.wo(), ob = dtype_size(dst.dtype);
  if (p.image >= g.n || p.first + p.count > positions || tile.first_filter + tile.filters > g.co)
    fail_instruction(inst, fmt::format("the tile (image {}, positions [{}, {}), filters [{}, {})) is outside the "
                                      "{}x{}x{} output of {} image(s) the registers describe",
                                      p.image, p.first, p.first + p.count, tile.first_filter,
                                      tile.first_filter + tile.filters, g.ho(), g.wo(), g.co, g.n));
  const std::uint64_t h = p.first / g.wo(), w = p.first % g.wo();
  const std::uint64_t expected =
      registers_.get(ControlRegister::OutBase) + AddressGenerator::return_offset(g, p.image, h, w, tile.first_filter) * ob;
  const std::uint64_t pitch = tile.filters == g.co ? dst.row_bytes() : g.co * ob;
  if (dst.offset != expected || dst.row_pitch() != pitch)
    fail_instruction(inst, fmt::format("outputs[0] starts at {} with row pitch {} but the NHWC return addresses of "
                                      "this tile start at {} with pitch {} (out_base + (n*HWC + h*WC + w*C + c) * {})",
                                      dst.offset, dst.row_pitch(), expected, pitch, ob));
  const Cycles start = now_cycles() + cfg_.setup_cycles;
  const bool functional = setup().functional;
  if (functional) staging_.assign(src.bytes(), 0);
  std::uint8_t* results = functional ? staging_.data() : nullptr;
  const Cycles read = register_file_transfer(tlm::TLM_READ_COMMAND, src.offset, src.bytes(), results, start);
  const Cycles done = memory_transfer(tlm::TLM_WRITE_COMMAND, dst, results, read);
  for_each_run(dst, 0, dst.bytes(),
               [&](std::uint64_t address, std::uint64_t, std::uint64_t count) { cache_.invalidate(address, count); });
  *counters_.return_bytes += dst.bytes();
  returned_since_init_ += p.count * tile.filters;
  if (returned_since_init_ >= positions * g.n * g.co) enter(State::Done);
  wait_until(done);
  return {dst.bytes(), 0};
}

namespace {
EngineKind fetch_ml_kind() {
  EngineKind kind =
      engine_kind_of<FetchMlStateMachine, FetchMlConfig>("fetch_ml", fetch_ml_config_section(), fetch_ml_ops());
  // Its address generator is priced like a DMA, per request; the bytes where they land. The
  // fetch-path cache is SRAM of its size: hits read it, fills write it.
  kind.energy = [](const CoreConfig& core) {
    const std::uint64_t cache = core.block<FetchMlConfig>(FetchMlConfig::kSection).cache_bytes;
    EngineEnergy e;
    e.actions = {{"fetch_ml", "requests", {"dma", "transaction"}}};
    e.parts = {{"dma", 1}};
    if (cache == 0) return e;
    e.actions.push_back({"fetch_ml", "cache_hit_bytes", {"sram", "read", cache}});
    e.actions.push_back({"fetch_ml", "cache_fill_bytes", {"sram", "write", cache}});
    e.parts.push_back({"sram", double(cache) / 1024.0});
    return e;
  };
  return kind;
}
}  // namespace

}  // namespace npusim

NPUSIM_REGISTER_ENGINE(npusim::fetch_ml_kind())
