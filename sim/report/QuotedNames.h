#pragma once
#include <string>
#include <unordered_map>

namespace npusim {

// Engine and op names repeat on every row, so their JSON and CSV quoted forms are
// computed once and remembered. The cache is bounded so that a trace with unique
// names per instruction still keeps memory flat.
class QuotedNames {
 public:
  // The JSON literal of a name seen once (a flag named after its instruction's id): looking
  // it up in the cache would only cost a hash and a miss.
  static std::string json_uncached(const std::string& name);

  std::string json(const std::string& name);  // a JSON string literal, quotes included
  std::string csv(const std::string& name);   // an RFC 4180 field, quoted only if needed

 private:
  static constexpr std::size_t kMaxCached = 4096;
  std::unordered_map<std::string, std::string> json_;
  std::unordered_map<std::string, std::string> csv_;
};

}  // namespace npusim
