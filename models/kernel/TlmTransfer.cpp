#include "models/kernel/TlmTransfer.h"

#include <stdexcept>
#include <string>

#include "models/kernel/SimTime.h"

namespace npusim {

Cycles tlm_transfer(tlm::tlm_fw_transport_if<>& port, tlm::tlm_command cmd, std::uint64_t address,
                    std::uint64_t bytes, std::uint8_t* data, Cycles earliest, const char* who,
                    const PitchedRows* rows, bool multicast) {
  tlm::tlm_generic_payload trans;
  trans.set_command(cmd);
  trans.set_address(address);
  trans.set_data_length(static_cast<unsigned int>(bytes));
  trans.set_streaming_width(static_cast<unsigned int>(bytes));
  trans.set_data_ptr(data);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  if (rows) trans.set_extension(new PitchedRows(*rows));  // the payload owns and frees it
  if (multicast) trans.set_extension(new MulticastCopy);
  const Cycles now = now_cycles();
  sc_core::sc_time delay = cycles_to_time(earliest > now ? earliest - now : 0);
  port.b_transport(trans, delay);
  if (trans.is_response_error())
    throw std::logic_error(std::string(who) + ": transfer outside memory at address " + std::to_string(address));
  return now + to_cycles(delay);
}

void tlm_debug_read(tlm::tlm_fw_transport_if<>& port, std::uint64_t address, std::uint64_t bytes,
                    std::uint8_t* data, std::uint64_t rows, std::uint64_t pitch) {
  if (!data) return;  // timing only
  const std::uint64_t row_bytes = bytes / rows;
  for (std::uint64_t r = 0; r < rows; ++r) {
    tlm::tlm_generic_payload trans;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(address + r * pitch);
    trans.set_data_length(static_cast<unsigned int>(row_bytes));
    trans.set_data_ptr(data + r * row_bytes);
    port.transport_dbg(trans);
  }
}

}  // namespace npusim
