#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/tags/TagInformation.h"

namespace npusim {

// The tag-generation step of seed002 §3.2-3.5 (S14-S16): from the ordered splittable
// dimensions of a tensor, the memory channel count C and the core count P, the
// target split dimension, the number and length of the pieces and the split index.

// ¶161: how a non-integer split length is made whole.
enum class Rounding { Floor, Ceil, Round };
std::optional<Rounding> parse_rounding(const std::string& name);
const char* rounding_name(Rounding r);

// One splittable dimension as the strategy database gives it (priority = order in
// the list) with its operational value (¶159: static value + padding length) and
// its candidate storage and exchange level (§3.4, §3.5: one of each per dimension).
struct SplittableDim {
  char dim = 'c';
  std::uint64_t value = 0;
  StorageId store;
  ExchangeLevel swap = ExchangeLevel::None;
};

struct SplitDecision {
  char dim = 'c';
  std::uint64_t value = 0;     // operational value of the target dimension
  int mode = 1;                // ¶160-164: 1 = P pieces, 2 = C pieces, 3 = unit pieces
  bool fallback = false;       // no dimension met D >= C: the largest one was taken (¶173)
  std::uint64_t length = 1;    // split length after rounding
  SplitIndex index;            // inclusive ranges, in order
  StorageId store;
  ExchangeLevel swap = ExchangeLevel::None;
};

// §3.3 (a)-(c). (a) the first dimension in priority order with D >= C, else the
// largest (ties: the higher priority). (b) Mode 1 when D >= P (P pieces of D/P),
// Mode 2 when C <= D < P (C pieces of D/C), Mode 3 when D < C (D pieces of 1).
// (c) piece k = [k*len, (k+1)*len - 1]; the remainder the text leaves open is read as:
// the last piece ends at D - 1 (longer after floor, shorter after ceil), and pieces
// that would start at or past D (ceil) are dropped. `dims` must not be empty.
SplitDecision decide_split(const std::vector<SplittableDim>& dims, std::uint32_t channels, std::uint32_t cores,
                           Rounding rounding = Rounding::Ceil);

// Whether the rule chose its dimension because it met the split condition (D >= C).
inline bool meets_split_condition(const SplitDecision& d, std::uint32_t channels) { return d.value >= channels; }

// §3.1 S13: the storage space (numbered from 1) piece `piece` of `pieces` goes to when
// the tag names a class of `spaces` spaces: in turn, blocked (Example 1: pieces 1-2 to
// memory 1, 3-4 to memory 2, seed002 §6.4 item 13); an instance id names its own space.
std::uint32_t storage_instance(const StorageId& store, std::size_t piece, std::size_t pieces, std::uint32_t spaces);

// ¶94/¶97: bytes of the data after padding: product of the operational values times
// the element size (the seed's "4 x 8 with bit width 4" = 128 bytes reads width as bytes).
std::uint64_t data_size(const std::vector<std::uint64_t>& operational_values, std::uint64_t element_bytes);

// Operational value of each letter of the dynamic order: the static value of that
// letter (found in the static order) plus its padding length.
std::vector<std::uint64_t> operational_values(const StaticTag& s, const DynamicTag& d);

}  // namespace npusim
