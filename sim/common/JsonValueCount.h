#pragma once
#include <cstdint>
#include <string_view>

namespace npusim {

// How many values (objects, arrays, numbers, strings, literals) a JSON text holds at most,
// found by one pass over its bytes without parsing: 1 + the commas and opening brackets outside
// strings. Exact for valid JSON without empty objects or arrays (each of those counts one too
// many). Lets a reader refuse a document of millions of tiny values before parsing it would
// take gigabytes.
std::uint64_t json_values_at_most(std::string_view text);

}  // namespace npusim
