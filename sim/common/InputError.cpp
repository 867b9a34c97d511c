#include "sim/common/InputError.h"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace npusim {

namespace {

constexpr std::size_t kMaxReason = kMaxEchoedText;
constexpr std::size_t kMaxPlace = 200;

bool continues_utf8(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

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

InputError::InputError(std::string file, std::string location, std::string reason)
    : std::runtime_error(compose(shortened_for_message(file, kMaxPlace), shortened_for_message(location, kMaxPlace),
                                 shortened_for_message(reason, kMaxReason))),
      file_(std::move(file)),
      location_(shortened_for_message(std::move(location), kMaxPlace)),
      reason_(shortened_for_message(std::move(reason), kMaxReason)) {}

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
