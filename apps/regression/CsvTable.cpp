#include "apps/regression/CsvTable.h"

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

namespace {

// Reads one record starting at `pos`; advances `pos` past its line end.
std::vector<std::string> read_record(const std::string& text, std::size_t& pos, std::size_t& line,
                                     const std::string& file) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  const std::size_t first_line = line;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c == '"' && pos < text.size() && text[pos] == '"') {
        fields.back() += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      ++line;
      return fields;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw InputError(file, fmt::format("line {}", first_line), "unterminated quoted field");
  ++line;
  return fields;
}

}  // namespace

CsvTable parse_csv(const std::string& text, const std::string& file_for_messages) {
  CsvTable table;
  std::size_t pos = 0;
  std::size_t line = 1;
  if (text.empty()) throw InputError(file_for_messages, "", "empty file, expected a CSV header");
  table.header = read_record(text, pos, line, file_for_messages);
  while (pos < text.size()) {
    const std::size_t row_line = line;
    auto row = read_record(text, pos, line, file_for_messages);
    if (row.size() != table.header.size())
      throw InputError(file_for_messages, fmt::format("line {}", row_line),
                       fmt::format("{} fields, but the header has {}", row.size(), table.header.size()));
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace npusim
