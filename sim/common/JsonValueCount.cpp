#include "sim/common/JsonValueCount.h"

namespace npusim {

// Every value but the root is either a container's first child (counted by its opening bracket)
// or follows a comma.
std::uint64_t json_values_at_most(std::string_view text) {
  std::uint64_t values = 1;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == ',' || c == '[' || c == '{') ++values;
  }
  return values;
}

}  // namespace npusim
