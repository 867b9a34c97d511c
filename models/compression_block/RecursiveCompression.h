#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npusim {

// The recursive compression of seed001 op 1720 (blocks 1375/1475/1595 apply it to output
// sub-maps): a plane of rows x cols int8 cells is divided into 2x2 portions of smaller cell
// size, again and again, until a portion is no larger than the minimum cell size (the
// seed's "threshold minimum cell size" criterion). The index buffer holds, level by level
// (breadth first), one occupancy bit per child of each non-empty inner portion (four,
// or two when one side is already within the minimum), and each non-empty
// leaf portion's element bitmap; the value buffer holds the non-zeros in leaf order. The
// seed leaves bit widths and order to US 16/726,084, which is not in its text; these are
// choices (README.md).
struct RecursiveCompressionShape {
  std::uint32_t rows = 0, cols = 0;
  std::uint32_t min_cell = 4;  // a portion with both sides <= min_cell is a leaf (README.md: why 4)
  // What the plane's two sides are, for messages (a map row's plane: its columns x channels).
  const char* row_name = "rows";
  const char* col_name = "cols";
};

// One plane compressed: its index buffer (the bit stream, whole bytes) and its values.
struct RecursiveCompressed {
  std::vector<std::uint8_t> index;
  std::vector<std::int8_t> values;
  std::uint64_t bytes() const { return index.size() + values.size(); }
};

RecursiveCompressed recursive_compress(const RecursiveCompressionShape& shape, const std::int8_t* plane);

// Index-buffer bytes of a plane whose non-zero cells are `occupied` (rows x cols flags);
// the size of the index without building the values (timing-only runs).
std::uint64_t recursive_index_bytes(const RecursiveCompressionShape& shape, const std::vector<bool>& occupied);

// The largest index buffer a plane of this shape can need (every cell non-zero).
std::uint64_t recursive_index_capacity(const RecursiveCompressionShape& shape);

// A decoded plane: the non-zero cells (row * cols + col) in stream order, with their
// values, and the index bytes the stream used.
struct RecursiveDecoded {
  std::vector<std::uint32_t> cells;
  std::vector<std::int8_t> values;
  std::uint64_t index_bytes = 0;
};

// Why a stream is not a valid compressed plane: where (level and mask, or value) and what
// disagrees.
struct RecursiveMismatch {
  std::string place, reason;
};

// Reads `index` (at most `index_capacity` bytes) and takes one value per marked cell from
// `values` (at most `value_capacity`). A level whose masks disagree with the level above
// (a marked portion that holds nothing), a stream that ends
// inside a level, more marks than values, or a marked value of 0 is a mismatch.
std::optional<RecursiveMismatch> recursive_decompress(const RecursiveCompressionShape& shape,
                                                      const std::uint8_t* index, std::uint64_t index_capacity,
                                                      const std::int8_t* values, std::uint64_t value_capacity,
                                                      RecursiveDecoded& out);

}  // namespace npusim
