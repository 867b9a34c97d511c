#include "models/kernel/TlmTransfer.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "models/kernel/SimTime.h"

namespace npusim {

namespace {
// Payloads of finished transfers. SystemC processes take turns on one host thread, and a
// transfer nested in another (an interconnect piece) borrows its own.
std::vector<std::unique_ptr<tlm::tlm_generic_payload>>& free_payloads() {
  static std::vector<std::unique_ptr<tlm::tlm_generic_payload>> payloads;
  return payloads;
}
}  // namespace

TransferPayload::TransferPayload(tlm::tlm_command cmd, std::uint64_t address, std::uint64_t bytes,
                                 std::uint8_t* data, PitchedRows* rows) {
  auto& free = free_payloads();
  if (free.empty()) {
    payload_ = std::make_unique<tlm::tlm_generic_payload>();
  } else {
    payload_ = std::move(free.back());
    free.pop_back();
  }
  tlm::tlm_generic_payload& p = *payload_;
  // Every field a fresh payload would have, so a reused one carries nothing over.
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_length(static_cast<unsigned int>(bytes));
  p.set_streaming_width(static_cast<unsigned int>(bytes));
  p.set_data_ptr(data);
  p.set_byte_enable_ptr(nullptr);
  p.set_byte_enable_length(0);
  p.set_dmi_allowed(false);
  p.set_gp_option(tlm::TLM_MIN_PAYLOAD);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  if (rows) p.set_extension(rows);
}

TransferPayload::~TransferPayload() {
  payload_->clear_extension<PitchedRows>();
  payload_->clear_extension<MulticastCopy>();
  free_payloads().push_back(std::move(payload_));
}

Cycles tlm_transfer(tlm::tlm_fw_transport_if<>& port, tlm::tlm_command cmd, std::uint64_t address,
                    std::uint64_t bytes, std::uint8_t* data, Cycles earliest, const char* who,
                    const PitchedRows* rows, bool multicast) {
  PitchedRows pitched = rows ? *rows : PitchedRows{};
  TransferPayload payload(cmd, address, bytes, data, rows ? &pitched : nullptr);
  tlm::tlm_generic_payload& trans = *payload;
  MulticastCopy copy;  // attached, not owned, like the rows; cleared when the payload goes back
  if (multicast) trans.set_extension(&copy);
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
