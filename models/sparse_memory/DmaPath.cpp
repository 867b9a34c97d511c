#include "models/sparse_memory/DmaPath.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/kernel/TlmTransfer.h"

namespace npusim {

Cycles DmaPath::transfer(bool write, std::uint64_t address, std::uint64_t bytes, std::uint8_t* data, Cycles start) {
  const tlm::tlm_command cmd = write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
  Cycles done = start, issue = start;
  for (std::uint64_t at = 0; at < bytes; at += request_bytes_) {
    const std::uint64_t n = std::min(request_bytes_, bytes - at);
    done = std::max(done, tlm_transfer(*port.operator->(), cmd, address + at, n, data ? data + at : nullptr, issue,
                                       port.name()));
    issue += Cycles(std::ceil(double(n) / bytes_per_cycle_));
    ++requests_;
  }
  return done;
}

namespace {
void debug_transport(tlm_utils::simple_initiator_socket<DmaPath>& port, tlm::tlm_command cmd, std::uint64_t address,
                     std::uint64_t bytes, std::uint8_t* data) {
  tlm::tlm_generic_payload t;
  t.set_command(cmd);
  t.set_address(address);
  t.set_data_ptr(data);
  t.set_data_length(unsigned(bytes));
  if (port->transport_dbg(t) != bytes) throw std::logic_error(std::string(port.name()) + ": debug transfer failed");
}
}  // namespace

void DmaPath::peek(std::uint64_t address, std::uint64_t bytes, std::uint8_t* data) {
  debug_transport(port, tlm::TLM_READ_COMMAND, address, bytes, data);
}

void DmaPath::poke(std::uint64_t address, std::uint64_t bytes, const std::uint8_t* data) {
  debug_transport(port, tlm::TLM_WRITE_COMMAND, address, bytes, const_cast<std::uint8_t*>(data));
}

}  // namespace npusim
