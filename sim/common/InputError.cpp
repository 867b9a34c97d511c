#include "sim/common/InputError.h"

#include <cerrno>
#include <cstring>

namespace npusim {

namespace {

constexpr std::size_t kMaxReason = 600;
constexpr std::size_t kMaxPlace = 200;

bool continues_utf8(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Messages echo what the user wrote, which may be a 100 KB value: keep the head
// and the tail (where "allowed ..." usually stands), never splitting a UTF-8 character.
std::string shortened(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t head = limit * 3 / 4;
  std::size_t tail = text.size() - limit / 4;
  while (head > 0 && continues_utf8(text[head])) --head;
  while (tail < text.size() && continues_utf8(text[tail])) ++tail;
  return text.substr(0, head) + " [... " + std::to_string(tail - head) + " characters cut ...] " + text.substr(tail);
}

std::string compose(const std::string& file, const std::string& location, const std::string& reason) {
  std::string text = file.empty() ? std::string("<input>") : file;
  if (!location.empty()) text += ": " + location;
  return text + ": " + reason;
}
}  // namespace

InputError::InputError(std::string file, std::string location, std::string reason)
    : std::runtime_error(compose(shortened(file, kMaxPlace), shortened(location, kMaxPlace),
                                 shortened(reason, kMaxReason))),
      file_(std::move(file)),
      location_(shortened(std::move(location), kMaxPlace)),
      reason_(shortened(std::move(reason), kMaxReason)) {}

void fail_writing(const std::string& path, const std::string& what) {
  const int error = errno;
  throw InputError(path, "", what + ": " + (error != 0 ? std::strerror(error) : "unknown reason"));
}

}  // namespace npusim
