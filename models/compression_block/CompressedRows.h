#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/compression_block/RecursiveCompression.h"

namespace npusim {

// One compressed non-zero: its int8 value and its int32 index.
constexpr std::uint64_t kCompressedEntryBytes = 1 + 4;

// An [h, w, c] int8 map stored by the compression blocks in the recursive format, one map
// row at a time, so a band of rows is a contiguous slice any later layer can read:
// - the value buffer is [h, w, c] int8: row y's non-zeros, in stream order, at the start
//   of its w*c-byte slot;
// - the index buffer is [h, pitch] uint8: row y's stream at the start of its pitch-byte
//   slot, the stream of a w x c plane (positions x channels) with minimum cell kMinCell.
struct CompressedRows {
  static constexpr std::uint32_t kMinCell = 4;  // README.md: the measured choice
  std::uint32_t h = 0, w = 0, c = 0;

  RecursiveCompressionShape plane() const { return {w, c, kMinCell, "columns", "channels"}; }
  std::uint64_t row_elements() const { return std::uint64_t(w) * c; }
  // The largest stream of one row: the index buffer's row pitch.
  std::uint64_t index_pitch() const { return recursive_index_capacity(plane()); }
};

// What a compressed map really moves: per row, its non-zeros (value bytes) and its stream's bytes.
struct CompressedRowSizes {
  std::vector<std::uint64_t> value_bytes, index_bytes;
  std::uint64_t total() const;
};

// The part of a row's `total` bytes that columns [x0, x1) of its `w` take, in proportion
// (assumption: a row's stream is not cut at unit borders); the parts of a row add up to it.
std::uint64_t column_share(std::uint64_t total, std::uint32_t x0, std::uint32_t x1, std::uint32_t w);
// The index bytes a unit's input window (rows [row0, row0 + rows), columns [col0, col0 +
// cols) of a w-wide map) reads: of each row, its stream's share for those columns.
std::uint64_t window_index_bytes(const CompressedRowSizes& sizes, std::uint32_t row0, std::uint32_t rows,
                                 std::uint32_t col0, std::uint32_t cols, std::uint32_t w);

// The buffers of a dense map (values h*w*c bytes, index h*pitch bytes) and their sizes.
struct CompressedRowsImage {
  std::vector<std::uint8_t> values, index;
  CompressedRowSizes sizes;
};
CompressedRowsImage compress_rows(const CompressedRows& shape, const std::int8_t* dense);

// The sizes of a map whose non-zeros sit at `positions` (dense NHWC indices, increasing).
CompressedRowSizes compressed_row_sizes(const CompressedRows& shape, const std::vector<std::uint32_t>& positions);

// Decodes the buffers (values h*w*c bytes, index h*pitch bytes) into increasing dense NHWC
// positions and their values; a row whose levels disagree names the row and the level.
std::optional<RecursiveMismatch> decompress_rows(const CompressedRows& shape, const std::uint8_t* values,
                                                 const std::uint8_t* index, std::vector<std::uint32_t>& positions,
                                                 std::vector<std::int32_t>& nonzeros, CompressedRowSizes& sizes);

}  // namespace npusim
