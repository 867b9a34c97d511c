#pragma once
#include <cstddef>
#include <fstream>

#include <fmt/format.h>

namespace npusim {

// Run files (instructions.csv, the report's rows, timeline.json) are formatted into a
// memory buffer and written out in blocks: a run writes millions of lines, and a stream
// write per line costs more than formatting it.
inline constexpr std::size_t kWriteBlockBytes = 1 << 16;

// Writes what `pending` holds to `out` and empties it.
inline void write_block(std::ofstream& out, fmt::memory_buffer& pending) {
  out.write(pending.data(), std::streamsize(pending.size()));
  pending.clear();
}

// The same, once `pending` holds a block.
inline void write_full_block(std::ofstream& out, fmt::memory_buffer& pending) {
  if (pending.size() >= kWriteBlockBytes) write_block(out, pending);
}

}  // namespace npusim
