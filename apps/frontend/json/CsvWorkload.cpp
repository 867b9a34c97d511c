// A SCALE-Sim layer table: one conv layer per row, each reading its own input.
#include <algorithm>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "apps/frontend/json/TextWorkloads.h"
#include "apps/frontend/workload/LayerChecks.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

const char* const kColumns[] = {"Layer name", "IFMAP Height", "IFMAP Width", "Filter Height",
                                "Filter Width", "Channels", "Num Filter", "Strides"};

std::vector<std::string> split_csv_row(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) {
    const auto first = cell.find_first_not_of(" \t\r");
    const auto last = cell.find_last_not_of(" \t\r");
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
  }
  return cells;
}

std::uint32_t csv_number(const std::string& cell, const char* column, const Place& place) {
  std::size_t used = 0;
  unsigned long v = 0;
  try {
    v = std::stoul(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != cell.size() || v == 0 || v > kMaxExtent)
    place.fail(column, fmt::format("must be a positive integer, got '{}'", cell));
  return std::uint32_t(v);
}

// Blank rows and the header row carry no layer.
bool is_layer_row(const std::vector<std::string>& cells) {
  if (std::all_of(cells.begin(), cells.end(), [](const std::string& c) { return c.empty(); })) return false;
  std::string first = cells[0];
  std::transform(first.begin(), first.end(), first.begin(), ::tolower);
  return first != "layer name";
}

Layer read_row(const std::vector<std::string>& cells, std::uint32_t number, std::set<std::string>& names,
               const Place& place) {
  if (cells.size() < 8) place.fail("", fmt::format("needs 8 columns ({}, ...), got {}", kColumns[0], cells.size()));
  Layer l;
  l.name = sanitized_layer_name(cells[0]);
  if (!names.insert(l.name).second) place.fail(kColumns[0], fmt::format("'{}' appears twice", l.name));
  l.line = number;
  l.in = {csv_number(cells[1], kColumns[1], place), csv_number(cells[2], kColumns[2], place),
          csv_number(cells[5], kColumns[5], place)};
  l.kh = csv_number(cells[3], kColumns[3], place);
  l.kw = csv_number(cells[4], kColumns[4], place);
  l.sh = l.sw = csv_number(cells[7], kColumns[7], place);
  l.out = {window_out(l.in.h, 0, 0, l.kh, l.sh, place), window_out(l.in.w, 0, 0, l.kw, l.sw, place),
           csv_number(cells[6], kColumns[6], place)};
  l.shift = default_layer_shift(l);
  return l;
}

}  // namespace

Workload parse_scale_sim_csv(const std::string& body, const std::string& path) {
  Workload w;
  w.file = path;
  w.name = "scale-sim";
  w.independent_layers = true;
  std::stringstream lines(body);
  std::string line;
  std::set<std::string> names;
  for (std::uint32_t number = 1; std::getline(lines, line); ++number) {
    const auto cells = split_csv_row(line);
    if (is_layer_row(cells)) w.layers.push_back(read_row(cells, number, names, Place{path, fmt::format("line {}", number)}));
  }
  if (w.layers.empty()) throw InputError(path, "", "the layer table has no layer rows");
  w.input = w.layers[0].in;
  return w;
}

}  // namespace npusim
