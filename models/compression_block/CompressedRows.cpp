#include "models/compression_block/CompressedRows.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include <fmt/format.h>

namespace npusim {

std::uint64_t CompressedRowSizes::total() const {
  return std::accumulate(value_bytes.begin(), value_bytes.end(), std::uint64_t(0)) +
         std::accumulate(index_bytes.begin(), index_bytes.end(), std::uint64_t(0));
}

std::uint64_t column_share(std::uint64_t total, std::uint32_t x0, std::uint32_t x1, std::uint32_t w) {
  return total * x1 / w - total * x0 / w;
}

std::uint64_t window_index_bytes(const CompressedRowSizes& sizes, std::uint32_t row0, std::uint32_t rows,
                                 std::uint32_t col0, std::uint32_t cols, std::uint32_t w) {
  std::uint64_t bytes = 0;
  for (std::uint32_t y = row0; y < row0 + rows; ++y) bytes += column_share(sizes.index_bytes[y], col0, col0 + cols, w);
  return bytes;
}

CompressedRowsImage compress_rows(const CompressedRows& shape, const std::int8_t* dense) {
  const std::uint64_t n = shape.row_elements(), pitch = shape.index_pitch();
  CompressedRowsImage image;
  image.values.assign(shape.h * n, 0);
  image.index.assign(shape.h * pitch, 0);
  for (std::uint32_t y = 0; y < shape.h; ++y) {
    const RecursiveCompressed row = recursive_compress(shape.plane(), dense + y * n);
    // std::copy, not memcpy: an all-zero row has no values, and memcpy from an empty
    // vector's null data() is undefined even for zero bytes.
    std::copy(row.values.begin(), row.values.end(), image.values.begin() + y * n);
    std::copy(row.index.begin(), row.index.end(), image.index.begin() + y * pitch);
    image.sizes.value_bytes.push_back(row.values.size());
    image.sizes.index_bytes.push_back(row.index.size());
  }
  return image;
}

CompressedRowSizes compressed_row_sizes(const CompressedRows& shape, const std::vector<std::uint32_t>& positions) {
  const std::uint64_t n = shape.row_elements();
  CompressedRowSizes sizes;
  std::vector<bool> occupied(n);
  auto it = positions.begin();
  for (std::uint32_t y = 0; y < shape.h; ++y) {
    std::fill(occupied.begin(), occupied.end(), false);
    std::uint64_t count = 0;
    for (; it != positions.end() && *it < (y + 1) * n; ++it, ++count) occupied[*it - y * n] = true;
    sizes.value_bytes.push_back(count);
    sizes.index_bytes.push_back(recursive_index_bytes(shape.plane(), occupied));
  }
  return sizes;
}

std::optional<RecursiveMismatch> decompress_rows(const CompressedRows& shape, const std::uint8_t* values,
                                                 const std::uint8_t* index, std::vector<std::uint32_t>& positions,
                                                 std::vector<std::int32_t>& nonzeros, CompressedRowSizes& sizes) {
  const std::uint64_t n = shape.row_elements(), pitch = shape.index_pitch();
  for (std::uint32_t y = 0; y < shape.h; ++y) {
    RecursiveDecoded row;
    if (auto m = recursive_decompress(shape.plane(), index + y * pitch, pitch,
                                      reinterpret_cast<const std::int8_t*>(values + y * n), n, row))
      return RecursiveMismatch{fmt::format("row {}, {}", y, m->place), m->reason};
    // Stream order is leaf order; the units take a row's non-zeros by increasing position.
    std::vector<std::uint32_t> order(row.cells.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return row.cells[a] < row.cells[b]; });
    for (std::uint32_t k : order) {
      positions.push_back(std::uint32_t(y * n + row.cells[k]));
      nonzeros.push_back(row.values[k]);
    }
    sizes.value_bytes.push_back(row.values.size());
    sizes.index_bytes.push_back(row.index_bytes);
  }
  return std::nullopt;
}

}  // namespace npusim
