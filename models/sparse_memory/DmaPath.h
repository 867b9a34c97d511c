#pragma once
#include <cstdint>

#include <tlm_utils/simple_initiator_socket.h>

#include "sim/common/Cycles.h"

namespace npusim {

class Interconnect;
class StatGroup;

// One DMA path of the sparse cluster (seed001 DMA 245): requests of `request_bytes`
// issued at `bytes_per_cycle` into the chip interconnect, so the paths of all FM memory
// units and the weight memory contend at the DRAM channels.
class DmaPath {
 public:
  DmaPath(const char* name, double bytes_per_cycle, std::uint64_t request_bytes)
      : port(name), bytes_per_cycle_(bytes_per_cycle), request_bytes_(request_bytes) {}

  // Moves [address, address + bytes) starting no earlier than `start`; returns the cycle it is done.
  // `data` may be null (timing only).
  Cycles transfer(bool write, std::uint64_t address, std::uint64_t bytes, std::uint8_t* data, Cycles start);
  // Zero-time functional read of bytes a timed transfer has paid for (or will).
  void peek(std::uint64_t address, std::uint64_t bytes, std::uint8_t* data);
  // Zero-time functional write of bytes timed transfers have paid for (the compression
  // blocks' streams, whose bytes are known only once every unit of a row is done).
  void poke(std::uint64_t address, std::uint64_t bytes, const std::uint8_t* data);
  std::uint64_t requests() const { return requests_; }

  tlm_utils::simple_initiator_socket<DmaPath> port;

 private:
  double bytes_per_cycle_;
  std::uint64_t request_bytes_;
  std::uint64_t requests_ = 0;
};

}  // namespace npusim
