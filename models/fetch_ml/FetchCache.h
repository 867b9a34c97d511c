#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "sim/common/Cycles.h"
#include "sim/stats/StatRegistry.h"

namespace npusim {

// The cache on the fetch path of state machine 206 (seed003 ¶25: the state machine gives
// cache hints and requests preloads; ¶[0047]: only about 30 % of the data is "accessed and
// cached"; ¶[0050]: blocking keeps recently used data from being overwritten). Set
// associative, least recently used replacement, tags only in timing runs and the lines'
// bytes too in functional runs, so a hit returns what the cache holds. Sizes and
// latencies are assumptions (/core/fetch_ml cache_* keys).
class FetchCache : public sc_core::sc_module {
 public:
  struct Shape {
    std::uint64_t bytes = 0, line_bytes = 64;
    std::uint32_t ways = 8;
  };
  FetchCache(sc_core::sc_module_name name, const Shape& shape, bool functional);

  bool fitted() const { return sets_ > 0; }
  std::uint64_t line_bytes() const { return shape_.line_bytes; }
  // Whether line `line` (address / line_bytes) is held; lookup() also makes it the most recent.
  bool holds(std::uint64_t line) const { return find(line) != nullptr; }
  bool lookup(std::uint64_t line);
  // Places line `line` (its bytes in functional runs), replacing its set's least recent.
  void fill(std::uint64_t line, const std::uint8_t* data);
  // The bytes of a held line (functional runs; lookup() found it).
  const std::uint8_t* data(std::uint64_t line) const;
  // Drops every line ([address, address + bytes) only), as a write or a new layer does.
  void invalidate_all();
  void invalidate(std::uint64_t address, std::uint64_t bytes);

 private:
  struct Way {
    std::uint64_t line = 0, used = 0;  // used: when last touched; 0 = empty
  };
  Way* find(std::uint64_t line);
  const Way* find(std::uint64_t line) const;

  Shape shape_;
  bool functional_;
  std::uint64_t sets_ = 0, clock_ = 0;
  std::vector<Way> ways_;             // sets_ x shape_.ways
  std::vector<std::uint8_t> bytes_;   // functional runs: one line per way
};

}  // namespace npusim
