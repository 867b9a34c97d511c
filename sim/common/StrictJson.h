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

// Builds the document from the parser's SAX events, passing each one to
// OpenContainers first. Linear in the document: nlohmann's callback parser rescans the
// enclosing array for discarded values at the end of every object, which made a
// workload of n layers take time in n^2.
template <class Json>
class StrictDomBuilder {
 public:
  using Event = nlohmann::json::parse_event_t;
  StrictDomBuilder(Json& root, OpenContainers& open, const std::size_t& read) : root_(root), open_(open), read_(read) {}

  bool null() { return scalar(Json(nullptr)); }
  bool boolean(bool v) { return scalar(Json(v)); }
  bool number_integer(typename Json::number_integer_t v) { return scalar(Json(v)); }
  bool number_unsigned(typename Json::number_unsigned_t v) { return scalar(Json(v)); }
  bool number_float(typename Json::number_float_t v, const typename Json::string_t&) { return scalar(Json(v)); }
  bool string(typename Json::string_t& v) { return scalar(Json(std::move(v))); }
  bool binary(typename Json::binary_t&) { return true; }  // JSON text has none
  bool start_object(std::size_t) { return open(Event::object_start, Json::value_t::object); }
  bool start_array(std::size_t) { return open(Event::array_start, Json::value_t::array); }
  bool key(typename Json::string_t& k) {
    open_.on_event(Event::key, &k, read_);
    key_ = k;
    return true;
  }
  bool end_object() { return close(Event::object_end); }
  bool end_array() { return close(Event::array_end); }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  bool scalar(Json v) {
    open_.on_event(Event::value, nullptr, read_);
    place(std::move(v));
    return true;
  }
  bool open(Event event, typename Json::value_t type) {
    open_.on_event(event, nullptr, read_);
    stack_.push_back(place(Json(type)));
    return true;
  }
  bool close(Event event) {
    open_.on_event(event, nullptr, read_);
    stack_.pop_back();
    return true;
  }
  Json* place(Json v) {
    if (stack_.empty()) return &(root_ = std::move(v));
    Json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    return &(parent[key_] = std::move(v));
  }

  Json& root_;
  OpenContainers& open_;
  const std::size_t& read_;
  std::vector<Json*> stack_;  // the open objects and arrays
  typename Json::string_t key_;
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
  Json parsed;
  strict_json::StrictDomBuilder<Json> builder(parsed, open, read);
  const char* begin = text.data();
  try {
    Json::sax_parse(strict_json::CountingIterator(begin, begin, &read),
                    strict_json::CountingIterator(begin, begin + text.size(), &read), &builder);
    return parsed;
  } catch (const nlohmann::json::parse_error& e) {
    strict_json::fail_malformed(text, file, first_line, e);
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond double's range, e.g. 1E99999 (found by fuzzing).
    strict_json::fail_number(text, file, first_line, read);
  }
}

}  // namespace npusim
