#include "apps/tags/ConstantPacket.h"

#include <stdexcept>

#include <fmt/format.h>

namespace npusim {

void PacketSegment::add(const std::string& name, std::uint64_t bytes) {
  entries.push_back({name, bytes, total});
  total += bytes;
}

std::vector<ConstantBlock> split_constant(const std::string& name, const SplitIndex& index, std::uint64_t unit_bytes) {
  std::vector<ConstantBlock> blocks;
  for (std::size_t k = 0; k < index.pieces.size(); ++k) {
    const auto [start, end] = index.pieces[k];
    blocks.push_back({fmt::format("{} block {}", name, k + 1), std::uint32_t(k), (end - start + 1) * unit_bytes});
  }
  return blocks;
}

std::vector<ConstantPacket> pack_constants(std::uint32_t cores, const std::vector<ConstantBlock>& constants) {
  std::vector<ConstantPacket> packets(cores);
  for (std::uint32_t c = 0; c < cores; ++c) packets[c].core = c;
  for (const auto& b : constants) {
    if (b.core >= cores) throw std::logic_error(fmt::format("constant '{}' is for core {} of {}", b.name, b.core, cores));
    packets[b.core].constants.add(b.name, b.bytes);
  }
  return packets;
}

}  // namespace npusim
