#pragma once
#include <string>
#include <vector>

namespace npusim {

// The candidate closest to `word` by edit distance, or "" when none is close
// enough to be a plausible typo. Used for "did you mean" hints in error messages.
std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace npusim
