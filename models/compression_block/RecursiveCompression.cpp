#include "models/compression_block/RecursiveCompression.h"

#include <deque>

#include <fmt/format.h>

namespace npusim {

namespace {

// A portion of the plane: rows [r0, r0 + rows), cols [c0, c0 + cols), at recursion depth `level`.
struct Portion {
  std::uint32_t r0 = 0, c0 = 0, rows = 0, cols = 0, level = 0;
  bool leaf(std::uint32_t min_cell) const { return rows <= min_cell && cols <= min_cell; }
  // A side longer than the minimum cell is halved (the first half takes the larger share
  // of an odd side); a side already within it is kept whole, so no child is ever empty.
  std::uint32_t splits_rows(std::uint32_t min_cell) const { return rows > min_cell ? 2 : 1; }
  std::uint32_t splits_cols(std::uint32_t min_cell) const { return cols > min_cell ? 2 : 1; }
  std::uint32_t children(std::uint32_t min_cell) const { return splits_rows(min_cell) * splits_cols(min_cell); }
  // Child q, row-major over the splits.
  Portion child(std::uint32_t q, std::uint32_t min_cell) const {
    const std::uint32_t nc = splits_cols(min_cell), qr = q / nc, qc = q % nc;
    const std::uint32_t top = splits_rows(min_cell) == 2 ? (rows + 1) / 2 : rows;
    const std::uint32_t left = nc == 2 ? (cols + 1) / 2 : cols;
    return {qr ? r0 + top : r0, qc ? c0 + left : c0, qr ? rows - top : top, qc ? cols - left : left, level + 1};
  }
  bool outside() const { return rows == 0 || cols == 0; }
  std::string text(const RecursiveCompressionShape& s) const {
    return fmt::format("level {} portion {} {}-{} {} {}-{}", level, s.row_name, r0, r0 + rows - 1, s.col_name, c0,
                       c0 + cols - 1);
  }
};

// Non-zero counts of every portion in O(1): a 2-D prefix sum of the occupancy flags.
class Occupancy {
 public:
  Occupancy(const RecursiveCompressionShape& s, const std::vector<bool>& occupied) : cols_(s.cols + 1) {
    sums_.assign(std::size_t(s.rows + 1) * cols_, 0);
    for (std::uint32_t r = 0; r < s.rows; ++r)
      for (std::uint32_t c = 0; c < s.cols; ++c)
        at(r + 1, c + 1) = at(r, c + 1) + at(r + 1, c) - at(r, c) + (occupied[std::size_t(r) * s.cols + c] ? 1 : 0);
  }
  bool any(const Portion& p) const {
    if (p.outside()) return false;
    const std::uint32_t r1 = p.r0 + p.rows, c1 = p.c0 + p.cols;
    return get(r1, c1) - get(p.r0, c1) - get(r1, p.c0) + get(p.r0, p.c0) > 0;
  }

 private:
  std::uint32_t& at(std::uint32_t r, std::uint32_t c) { return sums_[std::size_t(r) * cols_ + c]; }
  std::uint32_t get(std::uint32_t r, std::uint32_t c) const { return sums_[std::size_t(r) * cols_ + c]; }
  std::uint32_t cols_;
  std::vector<std::uint32_t> sums_;
};

class BitWriter {
 public:
  void put(bool bit) {
    if (bits_ % 8 == 0) bytes.push_back(0);
    if (bit) bytes.back() |= std::uint8_t(1u << (bits_ % 8));
    ++bits_;
  }
  std::vector<std::uint8_t> bytes;

 private:
  std::uint64_t bits_ = 0;
};

class BitReader {
 public:
  BitReader(const std::uint8_t* data, std::uint64_t capacity) : data_(data), capacity_bits_(8 * capacity) {}
  bool can_read(std::uint64_t n) const { return bits_ + n <= capacity_bits_; }
  bool get() {
    const bool b = (data_[bits_ / 8] >> (bits_ % 8)) & 1u;
    ++bits_;
    return b;
  }
  std::uint64_t bytes_used() const { return (bits_ + 7) / 8; }

 private:
  const std::uint8_t* data_;
  std::uint64_t capacity_bits_, bits_ = 0;
};

// The encoder's walk: the root's occupancy bit, then breadth first a mask per non-empty
// inner portion or a bitmap per non-empty leaf; `on_cell` sees each marked cell in order.
template <class OnCell>
void walk_encode(const RecursiveCompressionShape& s, const std::vector<bool>& occupied, BitWriter& out,
                 OnCell&& on_cell) {
  const Occupancy occ(s, occupied);
  const Portion root{0, 0, s.rows, s.cols, 0};
  out.put(occ.any(root));
  std::deque<Portion> queue;
  if (occ.any(root)) queue.push_back(root);
  for (; !queue.empty(); queue.pop_front()) {
    const Portion& p = queue.front();
    if (p.leaf(s.min_cell)) {
      for (std::uint32_t r = p.r0; r < p.r0 + p.rows; ++r)
        for (std::uint32_t c = p.c0; c < p.c0 + p.cols; ++c) {
          const std::uint32_t cell = r * s.cols + c;
          out.put(occupied[cell]);
          if (occupied[cell]) on_cell(cell);
        }
      continue;
    }
    for (std::uint32_t q = 0; q < p.children(s.min_cell); ++q) {
      const Portion child = p.child(q, s.min_cell);
      out.put(occ.any(child));
      if (occ.any(child)) queue.push_back(child);
    }
  }
}

std::vector<bool> nonzero_flags(const RecursiveCompressionShape& s, const std::int8_t* plane) {
  std::vector<bool> flags(std::size_t(s.rows) * s.cols);
  for (std::size_t i = 0; i < flags.size(); ++i) flags[i] = plane[i] != 0;
  return flags;
}

}  // namespace

RecursiveCompressed recursive_compress(const RecursiveCompressionShape& shape, const std::int8_t* plane) {
  RecursiveCompressed out;
  BitWriter bits;
  walk_encode(shape, nonzero_flags(shape, plane), bits, [&](std::uint32_t cell) { out.values.push_back(plane[cell]); });
  out.index = std::move(bits.bytes);
  return out;
}

std::uint64_t recursive_index_bytes(const RecursiveCompressionShape& shape, const std::vector<bool>& occupied) {
  BitWriter bits;
  walk_encode(shape, occupied, bits, [](std::uint32_t) {});
  return bits.bytes.size();
}

std::uint64_t recursive_index_capacity(const RecursiveCompressionShape& shape) {
  return recursive_index_bytes(shape, std::vector<bool>(std::size_t(shape.rows) * shape.cols, true));
}

namespace {

// Decoder state: the stream, the values and what has been decoded so far.
struct Decoder {
  const RecursiveCompressionShape& s;
  BitReader bits;
  const std::int8_t* values;
  std::uint64_t value_capacity;
  RecursiveDecoded& out;

  std::optional<RecursiveMismatch> ends_inside(const Portion& p, std::uint64_t need) const {
    if (bits.can_read(need)) return std::nullopt;
    return RecursiveMismatch{p.text(s), "the index buffer ends inside this level"};
  }
  std::optional<RecursiveMismatch> take_value(const Portion& p, std::uint32_t cell) {
    const std::uint64_t k = out.values.size();
    if (k >= value_capacity)
      return RecursiveMismatch{p.text(s), fmt::format("marks more cells than the {} values", value_capacity)};
    if (values[k] == 0)
      return RecursiveMismatch{fmt::format("value {}", k), fmt::format("is 0 but {} marks cell {} non-zero",
                                                                       p.text(s), cell)};
    out.cells.push_back(cell);
    out.values.push_back(values[k]);
    return std::nullopt;
  }
  std::optional<RecursiveMismatch> leaf(const Portion& p) {
    if (auto m = ends_inside(p, std::uint64_t(p.rows) * p.cols)) return m;
    bool any = false;
    for (std::uint32_t r = p.r0; r < p.r0 + p.rows; ++r)
      for (std::uint32_t c = p.c0; c < p.c0 + p.cols; ++c)
        if (bits.get()) {
          any = true;
          if (auto m = take_value(p, r * s.cols + c)) return m;
        }
    if (!any) return RecursiveMismatch{p.text(s), "the level above marks it non-zero but its bitmap is empty"};
    return std::nullopt;
  }
  std::optional<RecursiveMismatch> inner(const Portion& p, std::deque<Portion>& queue) {
    const std::uint32_t n = p.children(s.min_cell);
    if (auto m = ends_inside(p, n)) return m;
    bool any = false;
    for (std::uint32_t q = 0; q < n; ++q)
      if (bits.get()) {
        any = true;
        queue.push_back(p.child(q, s.min_cell));
      }
    if (!any) return RecursiveMismatch{p.text(s), "the level above marks it non-zero but its mask is empty"};
    return std::nullopt;
  }
};

}  // namespace

std::optional<RecursiveMismatch> recursive_decompress(const RecursiveCompressionShape& shape,
                                                      const std::uint8_t* index, std::uint64_t index_capacity,
                                                      const std::int8_t* values, std::uint64_t value_capacity,
                                                      RecursiveDecoded& out) {
  Decoder d{shape, BitReader(index, index_capacity), values, value_capacity, out};
  const Portion root{0, 0, shape.rows, shape.cols, 0};
  if (auto m = d.ends_inside(root, 1)) return m;
  std::deque<Portion> queue;
  if (d.bits.get()) queue.push_back(root);
  for (; !queue.empty(); queue.pop_front()) {
    const Portion p = queue.front();
    auto m = p.leaf(shape.min_cell) ? d.leaf(p) : d.inner(p, queue);
    if (m) return m;
  }
  out.index_bytes = d.bits.bytes_used();
  return std::nullopt;
}

}  // namespace npusim
