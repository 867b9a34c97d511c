#include "sim/common/StrictJson.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

std::string text_position(std::string_view text, std::size_t offset, std::size_t first_line) {
  const std::size_t end = std::min(offset, text.size());
  std::size_t line = first_line;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] != '\n') continue;
    ++line;
    line_start = i + 1;
  }
  return fmt::format("line {}, column {}", line, end - line_start + 1);
}

namespace strict_json {

namespace {

using Event = nlohmann::json::parse_event_t;

// "line L" of the byte just before `read` (a key's closing quote).
std::string line_of(std::string_view text, std::size_t read, std::size_t first_line) {
  const std::size_t end = std::min(read, text.size());
  return fmt::format("line {}", first_line + std::count(text.begin(), text.begin() + end, '\n'));
}

}  // namespace

void OpenContainers::on_event(Event event, const std::string* key, std::size_t read) {
  switch (event) {
    case Event::object_start: open(false, read); break;
    case Event::array_start: open(true, read); break;
    case Event::object_end:
    case Event::array_end: close(); break;
    case Event::key: add_key(*key, read); break;
    case Event::value:
      if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
      break;
  }
}

void OpenContainers::open(bool array, std::size_t read) {
  if (frames_.size() >= kMaxJsonDepth)
    throw InputError(file_, text_position(text_, read == 0 ? 0 : read - 1, first_line_),
                     fmt::format("objects and arrays nested more than {} deep; no npusim input needs that many "
                                 "levels: check the file for runaway brackets",
                                 kMaxJsonDepth));
  frames_.push_back(Frame{array, 0, {}, {}});
}

void OpenContainers::close() {
  frames_.pop_back();
  if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
}

void OpenContainers::add_key(const std::string& key, std::size_t read) {
  Frame& top = frames_.back();
  auto [seen, added] = top.keys.emplace(key, read);
  if (!added)
    throw InputError(file_, line_of(text_, read, first_line_),
                     fmt::format("key \"{}\" given twice in the object at {} (first at {}); nlohmann would keep "
                                 "only the last, so say it once",
                                 key, pointer_of_top(), line_of(text_, seen->second, first_line_)));
  top.key = key;
}

// JSON pointer of the innermost open object, e.g. "/chip/matrix" ("/" for the top).
std::string OpenContainers::pointer_of_top() const {
  std::string pointer;
  for (std::size_t i = 0; i + 1 < frames_.size(); ++i)
    pointer += "/" + (frames_[i].array ? std::to_string(frames_[i].index) : frames_[i].key);
  return pointer.empty() ? "/" : pointer;
}

void fail_number(std::string_view text, const std::string& file, std::size_t first_line, std::size_t read) {
  throw InputError(file, text_position(text, read == 0 ? 0 : read - 1, first_line),
                   "a number too large to represent (beyond about 1.8e308)");
}

// nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 14:
// <detail>"; keep the detail, and give the place in the file's own numbering.
void fail_malformed(std::string_view text, const std::string& file, std::size_t first_line,
                    const nlohmann::json::parse_error& e) {
  const std::string what = e.what();
  const std::size_t start = what.find("parse error");
  const std::size_t colon = start == std::string::npos ? std::string::npos : what.find(": ", start);
  const std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
  throw InputError(file, text_position(text, e.byte == 0 ? 0 : e.byte - 1, first_line),
                   "malformed JSON: " + detail);
}

}  // namespace strict_json

}  // namespace npusim
