#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "models/matrix_unit/ConvShape.h"

namespace npusim {

// A run of output positions of one image: linear index over ho x wo.
struct PositionRange {
  std::uint32_t image = 0;
  std::uint64_t first = 0, count = 0;
};

// The input rows a run of positions reads, clipped to the image (padding rows are
// generated as zeros, never fetched).
struct InputRows {
  std::uint32_t first = 0, count = 0;
};

// Fetch and return address generation logic 209 (seed003 §1.4, §2.5). It turns the
// control registers into the im2col walk over the original image (nothing unrolled
// in memory), the rows a tile must fetch, and the NHWC return offsets
// n*HWC + h*WC + w*C + c. The arithmetic is plain C++ so the compiler, `explain`
// and the shader datapath ask the same functions.
class AddressGenerator : public sc_core::sc_module {
 public:
  explicit AddressGenerator(sc_core::sc_module_name name) : sc_module(name) {}

  // Unrolled-matrix entry (position j of `image`, row k = (ky*kw + kx)*ci + c) as an
  // element index into the NHWC image [n hi wi ci], or -1 for a padding zero.
  static std::int64_t im2col_element(const ConvShape& g, std::uint32_t image, std::uint64_t j, std::uint64_t k);
  // The same entry inside a compact patch that holds rows `rows` of the image: -1 for padding.
  static std::int64_t patch_element(const ConvShape& g, const InputRows& rows, std::uint64_t j, std::uint64_t k);
  static InputRows input_rows(const ConvShape& g, const PositionRange& p);
  // NHWC element offset of output (n, h, w, c) in the [n ho wo co] result.
  static std::uint64_t return_offset(const ConvShape& g, std::uint64_t n, std::uint64_t h, std::uint64_t w,
                                     std::uint64_t c);
  // Distinct input elements (real, not padding) the positions' windows cover: what
  // the staging registers hold when unrolling happens on the register-file read path.
  static std::uint64_t window_union_elements(const ConvShape& g, const PositionRange& p);
  // The walk of a layer's position runs for tiles of J positions (whole output rows when
  // J >= wo, else J-wide pieces of each row), image by image: what the compiler lays tiles
  // out by, and what the state machine follows when it launches fetches itself (¶[0051]).
  static std::vector<PositionRange> position_runs(const ConvShape& g, std::uint64_t J, std::uint32_t image);
  // The run after `p` in that walk; after the last image's last run, image 0's first (the
  // next filter block starts over).
  static PositionRange next_run(const ConvShape& g, std::uint64_t J, const PositionRange& p);
  // How many times each element of one channel appears in the im2col matrix (seed003 G3).
  static std::vector<std::uint32_t> multiplicity_map(const ConvShape& g);

  // Counters: addresses handed to the memory system and to the return path.
  void count_fetch(std::uint64_t addresses) { fetch_addresses_ += addresses; }
  void count_return(std::uint64_t addresses) { return_addresses_ += addresses; }
  std::uint64_t fetch_addresses() const { return fetch_addresses_; }
  std::uint64_t return_addresses() const { return return_addresses_; }

 private:
  std::uint64_t fetch_addresses_ = 0;
  std::uint64_t return_addresses_ = 0;
};

}  // namespace npusim
