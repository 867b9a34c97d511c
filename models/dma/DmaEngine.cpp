#include "models/dma/DmaEngine.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/dma/DmaEnergy.h"
#include "models/dma/DmaOps.h"
#include "models/engine/EngineRegistry.h"
#include "models/interconnect/Interconnect.h"
#include "models/kernel/SimTime.h"
#include "models/kernel/TlmTransfer.h"
#include "models/scratchpad/Scratchpad.h"

namespace npusim {

DmaEngine::DmaEngine(sc_core::sc_module_name name, EngineSetup setup, const DmaConfig& cfg)
    : Engine(name, std::move(setup), cfg.queue_depth, cfg.max_outstanding),
      dram_port("dram_port"),
      nram_port("nram_port"),
      wram_port("wram_port"),
      cluster_port("cluster_port"),
      cache_route("cache_route"),
      cfg_(cfg) {
  const ChipConfig& chip = this->setup().hardware->chip;
  cluster_ = this->setup().core / chip.cores_per_cluster;
  remote_cache_cycles_ = Cycles(chip.cluster_cache.remote_hops) * chip.interconnect.hop_latency;
  transactions_ = &stat_group().counter("transactions", "count",
                                        "memory transactions issued (one per segment of each contiguous run)");
  if (cfg.bus_buffer_bytes == 0) return;
  bus_buffer_ = std::make_unique<BusBuffer>(cfg.bus_buffer_bytes);
  bus_counters_ = {&stat_group().counter("bus_buffer_full_cycles", "cycles",
                                         "cycles store segments waited for room in the bus buffer"),
                   &stat_group().counter("bus_buffer_peak_bytes", "bytes", "most bytes the bus buffer held at once"),
                   &stat_group().counter("bus_buffer_byte_cycles", "byte-cycles",
                                         "bytes held x cycles held; over the run's cycles, the mean occupancy")};
}

Cycles DmaEngine::admit_to_bus_buffer(const TensorOperand& dst, Cycles issue, std::uint64_t bytes) {
  if (!bus_buffer_ || dst.space != AddressSpace::Dram) return issue;
  const Cycles admitted = bus_buffer_->admit(issue, bytes);
  if (admitted > issue && setup().spans)
    setup().spans->add("core" + std::to_string(setup().core) + "." + setup().kind + ".bus_buffer", "bus buffer full",
                       issue, admitted);
  *bus_counters_.full_cycles = bus_buffer_->full_cycles();
  return admitted;
}

void DmaEngine::connect(CoreWiring& wiring) {
  wiring.interconnect.connect(dram_port, wiring.cluster);
  nram_port.bind(wiring.nram.socket);
  wram_port.bind(wiring.wram.socket);
  if (wiring.cluster_cache) cluster_port.bind(wiring.cluster_cache->socket);
  for (Scratchpad* cache : wiring.cluster_caches) cache_route.bind(cache->socket);
}

DmaEngine::Route DmaEngine::route_for(const TensorOperand& t) {
  if (t.space == AddressSpace::Cluster && t.cluster && *t.cluster != cluster_)
    return {cache_route[static_cast<int>(*t.cluster)], remote_cache_cycles_};
  return {&port_for(t.space), 0, t.space == AddressSpace::Dram ? multicast_ : Multicast::None};
}

tlm::tlm_fw_transport_if<>& DmaEngine::port_for(AddressSpace space) {
  // The forward interface a socket is bound to (its operator-> of sc_port).
  auto target = [](auto& socket) -> tlm::tlm_fw_transport_if<>& { return *socket.operator->(); };
  switch (space) {
    case AddressSpace::Nram: return target(nram_port);
    case AddressSpace::Wram: return target(wram_port);
    case AddressSpace::Cluster: return target(cluster_port);
    case AddressSpace::Dram:
    case AddressSpace::Rf: break;  // the load op never names rf
  }
  return target(dram_port);
}

// A multicast copy (params.multicast) takes the bytes another read already paid for:
// behind the cluster's routing node ("core") it costs no memory transaction at all.
Cycles DmaEngine::transfer(const Route& route, tlm::tlm_command cmd, std::uint64_t address, std::uint64_t bytes,
                           std::uint64_t bounce_at, Cycles earliest, std::uint64_t rows, std::uint64_t pitch) {
  std::uint8_t* data = bounce_.empty() ? nullptr : bounce_.data() + bounce_at;
  if (route.multicast == Multicast::Core) {
    tlm_debug_read(*route.port, address, bytes, data, rows, pitch);
    return earliest;
  }
  *transactions_ += rows;
  const bool copy = route.multicast == Multicast::Cluster;
  if (rows == 1) return tlm_transfer(*route.port, cmd, address, bytes, data, earliest, name(), nullptr, copy);
  PitchedRows pitched;
  pitched.rows = rows;
  pitched.row_bytes = bytes / rows;
  pitched.pitch = pitch;
  return tlm_transfer(*route.port, cmd, address, bytes, data, earliest, name(), &pitched, copy);
}

// One transaction per contiguous run; the whole rows of a pitched DRAM window go as one
// pitched transaction (PitchedRows), which the interconnect and the DRAM book exactly as
// its rows one by one. Cut rows at the segment's ends go alone.
Cycles DmaEngine::transfer_runs(const Route& route, tlm::tlm_command cmd, const TensorOperand& t,
                                std::uint64_t begin, std::uint64_t bytes, Cycles earliest, Cycles floor) {
  Cycles done = floor;
  const std::uint64_t end = begin + bytes, row = t.row_bytes();
  auto send = [&](std::uint64_t at, std::uint64_t count, std::uint64_t rows) {
    done = std::max(done, transfer(route, cmd, t.address_of(at), count, at - begin, earliest, rows, t.row_pitch()) +
                              route.hop_cycles);
  };
  if (t.dense() || t.space != AddressSpace::Dram) {
    for_each_run(t, begin, end, [&](std::uint64_t, std::uint64_t first, std::uint64_t count) { send(first, count, 1); });
    return done;
  }
  for (std::uint64_t at = begin; at < end;) {
    const std::uint64_t in_row = at % row;
    const std::uint64_t rows = in_row == 0 ? (end - at) / row : 0;
    const std::uint64_t count = rows > 0 ? rows * row : std::min(end, at - in_row + row) - at;
    send(at, count, std::max<std::uint64_t>(rows, 1));
    at += count;
  }
  return done;
}

std::uint64_t DmaEngine::segment_for(std::uint64_t total) const {
  const std::uint64_t unit = cfg_.segment_bytes, units = (total + unit - 1) / unit;
  if (cfg_.max_segments == 0 || units <= cfg_.max_segments) return unit;
  return (units + cfg_.max_segments - 1) / cfg_.max_segments * unit;
}

// One step per segment: the bytes of the source it reads, one range per
// contiguous run, so a pitched source never claims the gaps between its rows.
std::vector<ReadStep> DmaEngine::read_steps(const Instruction& inst) {
  const TensorOperand& src = inst.inputs.at(0);
  std::vector<ReadStep> steps;
  const std::uint64_t segment = segment_for(src.bytes());
  steps.reserve((src.bytes() + segment - 1) / segment);
  for (std::uint64_t offset = 0; offset < src.bytes(); offset += segment) {
    ReadStep step;
    if (!src.dense()) step.reads.reserve(segment / src.row_bytes() + 2);
    for_each_run(src, offset, std::min(src.bytes(), offset + segment),
                 [&](std::uint64_t address, std::uint64_t, std::uint64_t count) {
                   step.reads.push_back({&src, address, address + count});
                 });
    steps.push_back(std::move(step));
  }
  return steps;
}

// Moves tensor bytes [begin, begin + bytes) of src to dst; returns when the last write
// lands. `arrived` receives when the last read has left the source.
Cycles DmaEngine::move_segment(const TensorOperand& src, const TensorOperand& dst, std::uint64_t begin,
                               std::uint64_t bytes, Cycles issue, Cycles& arrived) {
  const Route from = route_for(src), to = route_for(dst);
  arrived = transfer_runs(from, tlm::TLM_READ_COMMAND, src, begin, bytes, issue + from.hop_cycles, issue);
  return transfer_runs(to, tlm::TLM_WRITE_COMMAND, dst, begin, bytes, arrived + to.hop_cycles, arrived);
}

Engine::Work DmaEngine::execute(const Instruction& inst) {
  const TensorOperand& src = inst.inputs.at(0);
  const TensorOperand& dst = inst.outputs.at(0);
  const std::uint64_t total = src.bytes();
  if (dst.bytes() != total)
    throw std::logic_error("DMA instruction " + std::to_string(inst.id) + ": source and destination sizes differ");

  std::uint64_t moved = 0;
  multicast_ = multicast_of(inst);
  // The instructions in flight share one issue slot, in program order: this one's
  // set-up overlaps the earlier ones' segments, its first segment follows their last.
  Cycles issue = std::max(now_cycles() + cfg_.setup_cycles, issue_free_);
  Schedule schedule;
  const std::uint64_t segment = segment_for(total);
  schedule.tile_bytes = segment;
  schedule.reads.reserve((total + segment - 1) / segment);
  schedule.written.reserve((total + segment - 1) / segment);
  if (setup().functional && bounce_.size() < segment) bounce_.resize(segment);
  Cycles done = issue, released = issue;
  std::size_t step = 0;
  for (std::uint64_t offset = 0; offset < total; offset += segment, ++step) {
    const std::uint64_t bytes = std::min<std::uint64_t>(segment, total - offset);
    // A staged segment waits for the producer stages it reads.
    issue = admit_to_bus_buffer(dst, std::max(issue, step_gate(step)), bytes);
    Cycles arrived = issue;
    const Cycles landed = move_segment(src, dst, offset, bytes, issue, arrived);
    done = std::max(done, landed);
    if (bus_buffer_ && dst.space == AddressSpace::Dram) {
      bus_buffer_->hold(issue, landed, bytes);
      *bus_counters_.peak_bytes = bus_buffer_->peak_bytes();
      *bus_counters_.byte_cycles = bus_buffer_->byte_cycles();
    }
    released = std::max(released, arrived);
    schedule.reads.emplace_back(issue, arrived);
    schedule.written.push_back({done, offset + bytes});
    moved += bytes;
    issue += static_cast<Cycles>(std::ceil(static_cast<double>(bytes) / cfg_.bytes_per_cycle));
  }
  issue_free_ = issue;
  // Invariant from the product brief: every transfer delivers what it took.
  if (moved != total) throw std::logic_error("DMA byte count mismatch");
  // Two-phase end flag: the last segment has left the source (for a store, the
  // data sits in the bus buffer); the destination's acknowledgement comes later.
  schedule.release = released;
  schedule.done = done;
  publish(inst, std::move(schedule));
  return {total, 0};  // the base class waits for `done`, or starts the next instruction meanwhile
}

}  // namespace npusim

namespace npusim {

namespace {
// The load and store DMAs are one model with their own sections.
EngineKind dma_kind(const std::string& engine, const std::string& what, std::vector<OpSpec> ops) {
  EngineKind kind =
      engine_kind_of<DmaEngine, DmaConfig>(engine, dma_config_section(engine + "_dma", engine, what), std::move(ops));
  kind.energy = [engine](const CoreConfig&) { return dma_energy(engine); };
  return kind;
}

const bool kLoadRegistered = register_engine(dma_kind("load", "load DMA (DRAM to NRAM/WRAM):", load_ops()));
const bool kStoreRegistered = register_engine(dma_kind("store", "store DMA (NRAM to DRAM):", store_ops()));
}  // namespace

}  // namespace npusim
