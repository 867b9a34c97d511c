#include "models/kernel/TlmTransfer.h"

#include <stdexcept>
#include <string>

#include "models/kernel/SimTime.h"

namespace npusim {

Cycles tlm_transfer(tlm::tlm_fw_transport_if<>& port, tlm::tlm_command cmd, std::uint64_t address,
                    std::uint64_t bytes, std::uint8_t* data, Cycles earliest, const char* who,
                    const PitchedRows* rows) {
  tlm::tlm_generic_payload trans;
  trans.set_command(cmd);
  trans.set_address(address);
  trans.set_data_length(static_cast<unsigned int>(bytes));
  trans.set_streaming_width(static_cast<unsigned int>(bytes));
  trans.set_data_ptr(data);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  if (rows) trans.set_extension(new PitchedRows(*rows));  // the payload owns and frees it
  const Cycles now = now_cycles();
  sc_core::sc_time delay = cycles_to_time(earliest > now ? earliest - now : 0);
  port.b_transport(trans, delay);
  if (trans.is_response_error())
    throw std::logic_error(std::string(who) + ": transfer outside memory at address " + std::to_string(address));
  return now + to_cycles(delay);
}

}  // namespace npusim
