#pragma once
#include <cmath>
#include <cstdint>

namespace npusim {

// Where a product lands (seed001 §2.5, Fig. 13): the data value's row and column
// offset by the weight's distance from the kernel's last row and column. The product
// space is a "full" cross-correlation anchored at the window's bottom-right corner.
struct ProductIndex {
  std::int32_t row = 0, col = 0;
  bool operator==(const ProductIndex& o) const { return row == o.row && col == o.col; }
};

inline ProductIndex product_index(std::int32_t x_row, std::int32_t x_col, std::int32_t w_row, std::int32_t w_col,
                                  std::int32_t w_rows, std::int32_t w_cols) {
  return {x_row + ((w_rows - 1) - w_row), x_col + ((w_cols - 1) - w_col)};
}

// Side of the variable accumulator register (VAR 1340) and accumulator window for a
// k-wide kernel over a k-wide cell: products of one cell span 2k - 1 positions.
inline std::uint32_t var_side(std::uint32_t k) { return 2 * k - 1; }

// Multipliers (active Benes ports) a unit needs so one round takes a whole k x k cell
// at this non-zero fraction (seed001 ¶160: 60 % non-zeros, k = 3 -> 6). The seed gives
// no rounding rule; rounding up keeps the cell to one round.
inline std::uint32_t multipliers_for_density(double nonzero_fraction, std::uint32_t kh, std::uint32_t kw) {
  const double cells = nonzero_fraction * double(kh) * double(kw);
  return std::uint32_t(std::ceil(cells - 1e-9));
}

}  // namespace npusim
