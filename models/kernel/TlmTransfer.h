#pragma once
#include <cstdint>

#include <tlm>

#include "sim/common/Cycles.h"

namespace npusim {

// One blocking TLM read or write of `bytes` at `address`, starting no earlier than
// `earliest`; returns the cycle it completes. `data` may be null in timing-only
// runs. A memory that answers with an error means a model bug (the trace reader
// has checked every address), so it throws std::logic_error naming `who`.
Cycles tlm_transfer(tlm::tlm_fw_transport_if<>& port, tlm::tlm_command cmd, std::uint64_t address,
                    std::uint64_t bytes, std::uint8_t* data, Cycles earliest, const char* who);

}  // namespace npusim
