#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/ConvShape.h"

namespace npusim {

// One non-zero of a compressed tensor with its index (seed001 §2.4): a data value with
// its (row, col) in the input map, or a weight with its (row, col) in the kernel.
struct NonZero {
  std::int32_t value = 0;
  std::uint16_t row = 0, col = 0;
};

// A compressed NHWC map [h, w, c]: values and the sorted linear indices (y*w + x)*c + ch.
struct CompressedMap {
  std::uint32_t h = 0, w = 0, c = 0;
  std::vector<std::int32_t> values;
  std::vector<std::uint32_t> indices;
};

// Compresses a dense NHWC int8 map (the compression op and the tests' reference).
CompressedMap compress_map(const std::int8_t* dense, std::uint32_t h, std::uint32_t w, std::uint32_t c);

// The rectangle of the output map one compute unit owns, and the input window it reads.
struct UnitRegion {
  std::uint32_t oy0 = 0, oy1 = 0, ox0 = 0, ox1 = 0;  // output rows and columns [begin, end)
  std::uint32_t row0 = 0, rows = 0, col0 = 0, cols = 0;  // input window, clipped to the map
  bool empty() const { return oy1 <= oy0 || ox1 <= ox0; }
};
UnitRegion unit_region(const ConvShape& g, std::uint32_t oy0, std::uint32_t oy1, std::uint32_t ox0,
                       std::uint32_t ox1);

// A unit's sub-feature map: the non-zeros of its input window, bucketed by kh x kw cell
// and channel in row-major order (value order 1815), as the unit walks them.
class CellGrid {
 public:
  CellGrid(const CompressedMap& map, const UnitRegion& region, std::uint32_t cell_h, std::uint32_t cell_w);

  std::uint32_t cells_y() const { return cells_y_; }
  std::uint32_t cells_x() const { return cells_x_; }
  std::uint32_t channels() const { return channels_; }
  std::uint32_t cell_h() const { return cell_h_; }
  std::uint32_t cell_w() const { return cell_w_; }
  std::uint64_t nonzeros() const { return entries_.size(); }
  std::uint64_t cell_nonzeros(std::uint32_t cy, std::uint32_t cx) const;
  const NonZero* begin(std::uint32_t cy, std::uint32_t cx, std::uint32_t ch) const {
    return entries_.data() + offsets_[slot(cy, cx, ch)];
  }
  const NonZero* end(std::uint32_t cy, std::uint32_t cx, std::uint32_t ch) const {
    return entries_.data() + offsets_[slot(cy, cx, ch) + 1];
  }

 private:
  std::size_t slot(std::uint32_t cy, std::uint32_t cx, std::uint32_t ch) const {
    return (std::size_t(cy) * cells_x_ + cx) * channels_ + ch;
  }
  std::uint32_t cell_h_, cell_w_, cells_y_, cells_x_, channels_;
  std::vector<std::uint32_t> offsets_;
  std::vector<NonZero> entries_;
};

// The non-zero weights of a [co, kh, kw, ci] kernel, per (co, ci) in row-major tap order
// (the order they are issued, arrow 1825).
class KernelNonzeros {
 public:
  KernelNonzeros(std::uint32_t co, std::uint32_t kh, std::uint32_t kw, std::uint32_t ci,
                 const std::vector<std::int32_t>& values, const std::vector<std::uint32_t>& indices);
  // Explicit taps of one (co = 0, ci = 0) kernel in issue order, for the seed's worked examples.
  KernelNonzeros(std::uint32_t kh, std::uint32_t kw, std::vector<NonZero> taps_in_order);

  std::uint32_t kh() const { return kh_; }
  std::uint32_t kw() const { return kw_; }
  std::uint32_t co() const { return co_; }
  std::uint32_t ci() const { return ci_; }
  std::uint64_t nonzeros() const { return taps_.size(); }
  const NonZero* begin(std::uint32_t o, std::uint32_t c) const { return taps_.data() + offsets_[o * ci_ + c]; }
  const NonZero* end(std::uint32_t o, std::uint32_t c) const { return taps_.data() + offsets_[o * ci_ + c + 1]; }
  // Output channel o's non-zeros as a bit set of slots ci * kh*kw + row * kw + col (set bits
  // in increasing order are the issue order), slot_words() 64-bit words to a channel.
  const std::uint64_t* slot_set(std::uint32_t o) const { return slot_sets_.data() + std::size_t(o) * slot_words_; }
  std::uint32_t slot_words() const { return slot_words_; }

 private:
  std::uint32_t co_, kh_, kw_, ci_;
  std::vector<std::uint32_t> offsets_;
  std::vector<NonZero> taps_;
  std::uint32_t slot_words_;
  std::vector<std::uint64_t> slot_sets_;
  void mark_slot(std::uint32_t o, std::uint32_t c, std::uint32_t tap) {
    const std::uint32_t slot = c * kh_ * kw_ + tap;
    slot_sets_[std::size_t(o) * slot_words_ + slot / 64] |= std::uint64_t(1) << (slot % 64);
  }
};

}  // namespace npusim
