#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace npusim {

// A byte count for people, in the largest binary unit (B, KiB, MiB, GiB, TiB) it reaches:
// a whole number of the unit as is ("512 KiB", "1000 B"), any other with one decimal,
// rounded ("1.5 KiB", "97.7 KiB"). Messages and the human tables use it; files meant for
// programs (report.json, CSV) keep the exact integer.
std::string byte_size_text(std::uint64_t bytes);

// True for a field that counts bytes, by its name (the last component of a dotted name):
// "bytes", "..._bytes" or "bytes_..." (bytes_read, bytes_written), but not a rate such as
// bytes_per_cycle.
bool is_byte_valued(const std::string& field);

// A table cell for `field` holding `text`: byte_size_text of it when the field counts bytes
// and the text is a whole number of bytes; nullopt when it stays as it is.
std::optional<std::string> byte_cell_text(const std::string& field, const std::string& text);

}  // namespace npusim
