#pragma once
#include <vector>

#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <memory>

#include "models/dma/BusBuffer.h"
#include "models/dma/DmaConfig.h"
#include "models/dma/DmaOps.h"
#include "models/engine/Engine.h"

namespace npusim {

// A core's load DMA or store DMA (seed000 §1.3, DMA 333). Both move one tensor
// between DRAM and a scratchpad; they differ only in direction, which the trace
// operands already give. A transfer is cut into segments issued back to back
// at the DMA's own rate; every segment is TLM reads from the source followed by
// TLM writes to the destination, so DRAM channels, routing hops and the
// scratchpad port all shape the time. The DRAM side may be a pitched window of
// a wider tensor (a channel block of an NHWC map): one request per row, the whole
// rows of a segment handed to the memory system as one pitched transaction.
// Up to `max_outstanding` instructions are in flight at once; they share the
// issue slot, so what overlaps is one transfer's latency with the next's issue.
class DmaEngine : public Engine {
 public:
  tlm_utils::simple_initiator_socket<DmaEngine> dram_port;
  tlm_utils::simple_initiator_socket<DmaEngine> nram_port;
  tlm_utils::simple_initiator_socket<DmaEngine> wram_port;
  tlm_utils::simple_initiator_socket_optional<DmaEngine> cluster_port;  // bound when the chip has cluster caches
  // Every cluster's cache, by cluster: the route to another cluster's cache crosses
  // remote_hops routing nodes each way (seed002 Example 1: core 1 reads off-core cache 2).
  tlm_utils::multi_passthrough_initiator_socket<DmaEngine, 32, tlm::tlm_base_protocol_types, 0,
                                                sc_core::SC_ZERO_OR_MORE_BOUND>
      cache_route;

  DmaEngine(sc_core::sc_module_name name, EngineSetup setup, const DmaConfig& cfg);

  void connect(CoreWiring& wiring) override;

 protected:
  Work execute(const Instruction& inst) override;
  std::vector<ReadStep> read_steps(const Instruction& inst) override;

 private:
  // The port an operand is reached through and the routing cycles each way.
  struct Route {
    tlm::tlm_fw_transport_if<>* port;
    Cycles hop_cycles;
    Multicast multicast = Multicast::None;  // a DRAM read whose bytes another read took out
  };
  Route route_for(const TensorOperand& t);
  tlm::tlm_fw_transport_if<>& port_for(AddressSpace space);
  Cycles transfer(const Route& route, tlm::tlm_command cmd, std::uint64_t address, std::uint64_t bytes,
                  std::uint64_t bounce_at, Cycles earliest, std::uint64_t rows = 1, std::uint64_t pitch = 0);
  // Moves tensor bytes [begin, begin + bytes) of `t` in or out over `route`; returns
  // when the last transaction completes, no earlier than `floor`.
  Cycles transfer_runs(const Route& route, tlm::tlm_command cmd, const TensorOperand& t, std::uint64_t begin,
                       std::uint64_t bytes, Cycles earliest, Cycles floor);
  // The segment length for a transfer of `total` bytes (DmaConfig::max_segments).
  std::uint64_t segment_for(std::uint64_t total) const;
  Cycles move_segment(const TensorOperand& src, const TensorOperand& dst, std::uint64_t begin, std::uint64_t bytes,
                      Cycles issue, Cycles& arrived);

  DmaConfig cfg_;
  std::uint32_t cluster_ = 0;
  Multicast multicast_ = Multicast::None;  // of the instruction being booked
  Cycles remote_cache_cycles_ = 0;  // one way to another cluster's cache
  std::uint64_t* transactions_ = nullptr;  // registered counter
  Cycles issue_free_ = 0;  // the issue slot is free from here on (after the last segment issued)
  std::vector<std::uint8_t> bounce_;  // the segment being copied (functional runs)
  // Writes into DRAM pass through it when bus_buffer_bytes > 0 (its counters are registered then).
  std::unique_ptr<BusBuffer> bus_buffer_;
  struct BusBufferCounters {
    std::uint64_t *full_cycles, *peak_bytes, *byte_cycles;
  } bus_counters_{};
  // The segment of `bytes` at `issue` waits for room in the bus buffer (writes into DRAM).
  Cycles admit_to_bus_buffer(const TensorOperand& dst, Cycles issue, std::uint64_t bytes);
};

}  // namespace npusim
