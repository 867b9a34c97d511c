#pragma once
#include <string>
#include <vector>

namespace npusim {

// A parsed CSV file (RFC 4180: quoted fields, doubled quotes), header first.
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// Errors are InputError naming `file_for_messages` and the line.
CsvTable parse_csv(const std::string& text, const std::string& file_for_messages);

}  // namespace npusim
