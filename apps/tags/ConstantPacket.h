#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "apps/tags/TagInformation.h"

namespace npusim {

// The constant-data packing step of seed002 §3.10: one packet per core ("first data
// packet"), holding the constant blocks that core uses (its instructions, its pieces
// of split weights, whole unsplit constants), the addresses of its inputs and outputs,
// and the sizes of the hidden-layer data, each in a segment of its own with a total.

// One constant, or one block of a split constant, for one core.
struct ConstantBlock {
  std::string name;
  std::uint32_t core = 0;
  std::uint64_t bytes = 0;
};

// An entry of a segment with its intra-segment offset.
struct PacketEntry {
  std::string name;
  std::uint64_t bytes = 0;
  std::uint64_t offset = 0;
};

struct PacketSegment {
  std::vector<PacketEntry> entries;
  std::uint64_t total = 0;  // the segment's total-size marker
  void add(const std::string& name, std::uint64_t bytes);
};

struct ConstantPacket {
  std::uint32_t core = 0;
  PacketSegment constants;  // first intra-segment offsets
  PacketSegment addresses;  // second
  PacketSegment hidden;     // third: one size record per hidden-layer tensor
};

// Blocks of a constant cut by its split index: piece k (`unit_bytes` per unit of the
// split dimension) goes to core k (¶116-117: filter block k for core k).
std::vector<ConstantBlock> split_constant(const std::string& name, const SplitIndex& index, std::uint64_t unit_bytes);

// One packet per core, 0..cores-1; blocks keep their order within a core's segment.
std::vector<ConstantPacket> pack_constants(std::uint32_t cores, const std::vector<ConstantBlock>& constants);

}  // namespace npusim
