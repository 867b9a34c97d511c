#include "models/dram/DramStorage.h"

#include <algorithm>
#include <cstring>

namespace npusim {

void DramStorage::write(std::uint64_t address, const std::uint8_t* data, std::uint64_t bytes) {
  while (bytes > 0) {
    std::uint64_t page = address / kPageBytes, offset = address % kPageBytes;
    std::uint64_t chunk = std::min(bytes, kPageBytes - offset);
    auto& slot = pages_[page];
    if (!slot) {
      slot.reset(new std::uint8_t[kPageBytes]);
      std::memset(slot.get(), 0, kPageBytes);
    }
    std::memcpy(slot.get() + offset, data, chunk);
    address += chunk;
    data += chunk;
    bytes -= chunk;
  }
}

void DramStorage::read(std::uint64_t address, std::uint8_t* data, std::uint64_t bytes) const {
  while (bytes > 0) {
    std::uint64_t page = address / kPageBytes, offset = address % kPageBytes;
    std::uint64_t chunk = std::min(bytes, kPageBytes - offset);
    auto it = pages_.find(page);
    if (it == pages_.end())
      std::memset(data, 0, chunk);
    else
      std::memcpy(data, it->second.get() + offset, chunk);
    address += chunk;
    data += chunk;
    bytes -= chunk;
  }
}

}  // namespace npusim
