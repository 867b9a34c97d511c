#pragma once
#include <cstdint>
#include <memory>

#include <tlm>

#include "sim/common/Cycles.h"

namespace npusim {

// Marks a transaction whose data are `rows` equal rows of `row_bytes`, `pitch` bytes
// apart from the transaction's address on (a window of a wider tensor in DRAM): one
// request per row, handed over at once. data_length is rows x row_bytes (the rows
// packed). A target that honours it books exactly what the rows sent one by one from
// the same cycle would book; a transaction without it is one contiguous range.
struct PitchedRows : tlm::tlm_extension<PitchedRows> {
  std::uint64_t rows = 1;
  std::uint64_t row_bytes = 0;
  std::uint64_t pitch = 0;

  tlm::tlm_extension_base* clone() const override { return new PitchedRows(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const PitchedRows&>(other);
  }
  std::uint64_t row_address(std::uint64_t first, std::uint64_t row) const { return first + row * pitch; }
};

// Marks a DRAM read whose bytes another instruction already took out of DRAM and the
// routing fabric replicates to this reader (a multicast; seed002 §3.9: in data-parallel
// mode the weights are exchanged between clusters). The fabric books the links from the
// memory to the reader's cluster and the hops, not the DRAM channel; the data comes from
// the DRAM's debug port (the bytes are those the other read took).
struct MulticastCopy : tlm::tlm_extension<MulticastCopy> {
  tlm::tlm_extension_base* clone() const override { return new MulticastCopy(*this); }
  void copy_from(const tlm::tlm_extension_base&) override {}
};

// A generic payload set up for one blocking transfer, borrowed from a free list and given
// back, its PitchedRows slot cleared, when it goes out of scope: constructing a payload
// allocates its extension array, and a DMA sends a transfer per run of bytes. `rows`, when
// given, is attached, not owned: it must outlive the transfer.
class TransferPayload {
 public:
  TransferPayload(tlm::tlm_command cmd, std::uint64_t address, std::uint64_t bytes, std::uint8_t* data,
                  PitchedRows* rows);
  ~TransferPayload();
  TransferPayload(const TransferPayload&) = delete;
  TransferPayload& operator=(const TransferPayload&) = delete;
  tlm::tlm_generic_payload& operator*() { return *payload_; }

 private:
  std::unique_ptr<tlm::tlm_generic_payload> payload_;
};

// One blocking TLM read or write of `bytes` at `address`, starting no earlier than
// `earliest`; returns the cycle it completes. `data` may be null in timing-only
// runs. `rows`, when given, makes it a pitched transfer (PitchedRows; `bytes` is then
// rows x row_bytes). A memory that answers with an error means a model bug (the trace
// reader has checked every address), so it throws std::logic_error naming `who`.
// `multicast` marks the read a MulticastCopy.
Cycles tlm_transfer(tlm::tlm_fw_transport_if<>& port, tlm::tlm_command cmd, std::uint64_t address,
                    std::uint64_t bytes, std::uint8_t* data, Cycles earliest, const char* who,
                    const PitchedRows* rows = nullptr, bool multicast = false);

// Copies `bytes` (as `rows` rows `pitch` apart) at `address` into `data` through the
// debug interface, taking no time: the bytes of a read that another read already paid for.
void tlm_debug_read(tlm::tlm_fw_transport_if<>& port, std::uint64_t address, std::uint64_t bytes,
                    std::uint8_t* data, std::uint64_t rows = 1, std::uint64_t pitch = 0);

}  // namespace npusim
