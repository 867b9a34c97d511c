#include "sim/common/InputError.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace npusim {

namespace {

constexpr std::size_t kMaxReason = kMaxEchoedText;
constexpr std::size_t kMaxPlace = 200;

bool continues_utf8(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

void append_hex(std::string& out, const char* prefix, unsigned char c) {
  static const char digits[] = "0123456789abcdef";
  out += prefix;
  out += digits[c >> 4];
  out += digits[c & 0xF];
}

bool is_line_break(char c) { return c == '\n' || c == '\r'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || is_line_break(c); }

std::string compose(const std::string& file, const std::string& location, const std::string& reason) {
  std::string text = file.empty() ? std::string("<input>") : file;
  if (!location.empty()) text += ": " + location;
  return text + ": " + reason;
}
}  // namespace

// Messages echo what the user wrote, which may be a 100 KB value: keep the head
// and the tail (where "allowed ..." usually stands).
std::string shortened_for_message(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t head = limit * 3 / 4;
  std::size_t tail = text.size() - limit / 4;
  while (head > 0 && continues_utf8(text[head])) --head;
  while (tail < text.size() && continues_utf8(text[tail])) ++tail;
  return text.substr(0, head) + " [... " + std::to_string(tail - head) + " of " + std::to_string(text.size()) +
         " characters cut ...] " + text.substr(tail);
}

std::string echoed_for_message(std::string text, std::size_t limit) {
  return escaped_controls(shortened_for_message(std::move(text), limit));
}

std::string escaped_controls(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7F) append_hex(out, "\\x", c);
    else if (c == 0xC2 && next >= 0x80 && next <= 0x9F) {  // U+0080 to U+009F: C1 codes, 0x9B is CSI
      append_hex(out, "\\u00", next);
      ++i;
    } else out += char(c);
  }
  return out;
}

std::string joined_lines(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i;
    while (end < text.size() && is_blank(text[end])) ++end;
    const bool breaks = std::any_of(text.begin() + i, text.begin() + end, is_line_break);
    if (end == i) out += text[end++];
    else if (breaks) out += (i == 0 || end == text.size()) ? "" : " ";  // none at either end
    else out.append(text, i, end - i);
    i = end;
  }
  return out;
}

InputError::InputError(std::string file, std::string location, std::string reason)
    : std::runtime_error(compose(echoed_for_message(file, kMaxPlace), echoed_for_message(location, kMaxPlace), echoed_for_message(reason, kMaxReason))),
      file_(std::move(file)),
      location_(echoed_for_message(std::move(location), kMaxPlace)),
      reason_(echoed_for_message(std::move(reason), kMaxReason)) {}

void fail_writing(const std::string& path, const std::string& what) {
  const int error = errno;
  throw InputError(path, "", what + ": " + (error != 0 ? std::strerror(error) : "unknown reason"));
}

}  // namespace npusim

namespace npusim {

void fail_allocating(const std::string& file, const std::string& place, std::uint64_t bytes) {
  const double gib = static_cast<double>(bytes) / double(1ull << 30);
  throw InputError(file, place,
                   fmt::format("needs {} bytes ({:.2f} GiB) of memory, more than the machine (or ulimit -v) gives "
                               "npusim",
                               bytes, gib));
}

}  // namespace npusim
