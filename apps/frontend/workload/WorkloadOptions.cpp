#include "apps/frontend/workload/WorkloadOptions.h"

#include <sstream>

#include <fmt/format.h>

#include "apps/frontend/workload/LayerChecks.h"
#include "sim/common/InputError.h"

namespace npusim {

std::pair<std::string, std::vector<std::int64_t>> parse_input_shape(const std::string& text) {
  const auto eq = text.rfind('=');
  std::vector<std::int64_t> dims;
  if (eq != std::string::npos && eq > 0) {
    // Every cell between the x's, an empty last one too ("1x3x8x8x" is refused, not 1x3x8x8).
    const std::string shape = text.substr(eq + 1) + "x";
    for (std::size_t from = 0, x; (x = shape.find('x', from)) != std::string::npos; from = x + 1) {
      const std::string cell = shape.substr(from, x - from);
      const auto n = cell.empty() || cell.find_first_not_of("0123456789") != std::string::npos || cell.size() > 8
                         ? 0 : std::stoll(cell);
      if (n <= 0 || n > kMaxExtent) {
        dims.clear();
        break;
      }
      dims.push_back(n);
    }
  }
  if (dims.empty())
    throw InputError("", "--input-shape", fmt::format("'{}' must be NAME=D1xD2x... with positive integers, e.g. "
                                                      "input=1x3x224x224", text));
  return {text.substr(0, eq), dims};
}

}  // namespace npusim
