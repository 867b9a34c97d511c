#pragma once
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace npusim {

// Every JSON document a user gives us (config, workload, trace line, sweep spec) is
// read through parse_strict_json. Beyond plain JSON it rejects, as InputError:
// - a key given twice in one object (nlohmann would keep the last one silently),
//   naming the lines of both;
// - nesting deeper than kMaxJsonDepth, before anything downstream recurses into it.
// Malformed JSON is reported as "line L, column C".
inline constexpr std::size_t kMaxJsonDepth = 64;

// "line L, column C" of a 0-based byte offset; `first_line` is the number of the
// text's first line in its file (a trace line is one line of a larger file).
std::string text_position(std::string_view text, std::size_t offset, std::size_t first_line = 1);

namespace strict_json {

// Walks the text for nlohmann's parser and remembers how far it has read: when a
// key's callback fires, the parser has just read the key's closing quote.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* begin, const char* at, std::size_t* read) : begin_(begin), at_(at), read_(read) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    *read_ = static_cast<std::size_t>(at_ - begin_);
    return *this;
  }
  bool operator==(const CountingIterator& o) const { return at_ == o.at_; }
  bool operator!=(const CountingIterator& o) const { return at_ != o.at_; }

 private:
  const char* begin_;
  const char* at_;
  std::size_t* read_;
};

// The objects and arrays open at the parser's position, with the keys seen in
// each open object: enough to catch duplicates and say where they are.
class OpenContainers {
 public:
  OpenContainers(std::string_view text, const std::string& file, std::size_t first_line)
      : text_(text), file_(file), first_line_(first_line) {}
  void on_event(nlohmann::json::parse_event_t event, const std::string* key, std::size_t read);

 private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;                                  // arrays: elements completed
    std::string key;                                        // objects: the key being read
    std::unordered_map<std::string, std::size_t> keys;  // objects: key -> where it ended
  };
  void open(bool array, std::size_t read);
  void close();
  void add_key(const std::string& key, std::size_t read);
  std::string pointer_of_top() const;

  std::string_view text_;
  const std::string& file_;
  std::size_t first_line_;
  std::vector<Frame> frames_;
};

[[noreturn]] void fail_number(std::string_view text, const std::string& file, std::size_t first_line,
                              std::size_t read);
[[noreturn]] void fail_malformed(std::string_view text, const std::string& file, std::size_t first_line,
                                 const nlohmann::json::parse_error& e);

}  // namespace strict_json

template <class Json>
Json parse_strict_json(std::string_view text, const std::string& file, std::size_t first_line = 1) {
  std::size_t read = 0;
  strict_json::OpenContainers open(text, file, first_line);
  auto watch = [&](int /*depth*/, nlohmann::json::parse_event_t event, Json& parsed) {
    const bool is_key = event == nlohmann::json::parse_event_t::key;
    open.on_event(event, is_key ? &parsed.template get_ref<const std::string&>() : nullptr, read);
    return true;
  };
  const char* begin = text.data();
  try {
    return Json::parse(strict_json::CountingIterator(begin, begin, &read),
                       strict_json::CountingIterator(begin, begin + text.size(), &read), watch);
  } catch (const nlohmann::json::parse_error& e) {
    strict_json::fail_malformed(text, file, first_line, e);
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond double's range, e.g. 1E99999 (found by fuzzing).
    strict_json::fail_number(text, file, first_line, read);
  }
}

}  // namespace npusim
