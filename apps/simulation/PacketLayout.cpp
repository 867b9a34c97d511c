#include "apps/simulation/PacketLayout.h"

#include <algorithm>

#include <fmt/format.h>

namespace npusim {

namespace {

constexpr std::uint64_t kAddressBytes = 8;

// The weight blocks each core of a layer loads, by global core index.
std::vector<ConstantBlock> weight_blocks(const CompiledLayer& c) {
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  std::vector<ConstantBlock> blocks;
  if (!l.has_weights()) return blocks;
  const std::string name = l.name + " weights";
  if (t.split == ParallelMode::Data) {
    for (std::uint32_t core : t.cores)
      for (std::uint32_t b = 0; b < t.co_blocks; ++b)
        blocks.push_back({t.co_blocks > 1 ? fmt::format("{} block {}", name, b + 1) : name, core,
                          std::uint64_t(t.block_count(l, b)) * t.kernel_h * t.kernel_w * (l.in.c / l.groups)});
    return blocks;
  }
  // A model mode's pieces follow the split index of the weights (co or ci).
  SplitIndex index{splits_co(t.split) ? 'n' : 'c', {}};
  for (const auto& [lo, hi] : t.shares) index.pieces.emplace_back(lo, hi - 1);
  const std::uint64_t unit = std::uint64_t(t.kernel_h) * t.kernel_w * (splits_co(t.split) ? l.in.c : l.out.c);
  for (ConstantBlock b : split_constant(name, index, unit)) {
    b.core = t.cores.at(b.core);
    blocks.push_back(b);
  }
  return blocks;
}

// Built key by key and moved into place: an initializer list would copy the entries
// (a 7B decode's constants segment holds some 27,000).
nlohmann::json segment_json(const PacketSegment& s) {
  nlohmann::json entries = nlohmann::json::array();
  entries.get_ref<nlohmann::json::array_t&>().reserve(s.entries.size());
  for (const auto& e : s.entries) {
    nlohmann::json& entry = entries.emplace_back(nlohmann::json::object());
    entry["name"] = e.name;
    entry["bytes"] = e.bytes;
    entry["offset"] = e.offset;
  }
  nlohmann::json segment = nlohmann::json::object();
  segment["total_bytes"] = s.total;
  segment["entries"] = std::move(entries);
  return segment;
}

}  // namespace

std::vector<ConstantPacket> constant_packets(const TraceEmitter& emitter, std::uint32_t cores) {
  std::vector<ConstantBlock> constants;
  for (const auto& c : emitter.layers())
    for (const auto& b : weight_blocks(c)) constants.push_back(b);
  std::vector<ConstantPacket> packets = pack_constants(cores, constants);
  const auto& layers = emitter.layers();
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const CompiledLayer& c = layers[i];
    for (std::uint32_t core : c.tiling.cores) {
      packets[core].addresses.add(c.layer.name + " input address", kAddressBytes);
      packets[core].addresses.add(c.layer.name + " output address", kAddressBytes);
    }
    const bool hidden = std::any_of(layers.begin() + std::ptrdiff_t(i) + 1, layers.end(), [&](const CompiledLayer& later) {
      return std::find(later.layer.inputs.begin(), later.layer.inputs.end(), c.layer.name) != later.layer.inputs.end();
    });
    if (hidden)
      for (auto& p : packets) p.hidden.add(c.layer.name, c.output_bytes);
  }
  return packets;
}

nlohmann::json packets_json(const std::vector<ConstantPacket>& packets) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : packets)
    out.push_back({{"core", p.core},
                   {"constants", segment_json(p.constants)},
                   {"addresses", segment_json(p.addresses)},
                   {"hidden", segment_json(p.hidden)}});
  return out;
}

}  // namespace npusim
