#include "apps/tags/TagGeneration.h"

#include <algorithm>
#include <stdexcept>

namespace npusim {

std::optional<Rounding> parse_rounding(const std::string& name) {
  if (name == "floor") return Rounding::Floor;
  if (name == "ceil") return Rounding::Ceil;
  if (name == "round") return Rounding::Round;
  return std::nullopt;
}

const char* rounding_name(Rounding r) {
  switch (r) {
    case Rounding::Floor: return "floor";
    case Rounding::Ceil: return "ceil";
    case Rounding::Round: return "round";
  }
  return "?";
}

namespace {

std::uint64_t divide(std::uint64_t d, std::uint64_t n, Rounding r) {
  switch (r) {
    case Rounding::Floor: return std::max<std::uint64_t>(1, d / n);
    case Rounding::Ceil: return (d + n - 1) / n;
    case Rounding::Round: return std::max<std::uint64_t>(1, (2 * d + n) / (2 * n));
  }
  return 1;
}

}  // namespace

SplitDecision decide_split(const std::vector<SplittableDim>& dims, std::uint32_t channels, std::uint32_t cores,
                           Rounding rounding) {
  if (dims.empty()) throw std::logic_error("decide_split: no splittable dimension");
  const SplittableDim* target = nullptr;
  for (const auto& d : dims)
    if (d.value >= channels) {
      target = &d;
      break;
    }
  SplitDecision out;
  if (!target) {
    out.fallback = true;
    target = &dims.front();
    for (const auto& d : dims)
      if (d.value > target->value) target = &d;
  }
  out.dim = target->dim;
  out.value = target->value;
  out.store = target->store;
  out.swap = target->swap;
  const std::uint64_t D = target->value;
  std::uint64_t count = 0;
  if (D >= cores) {
    out.mode = 1;
    count = cores;
  } else if (D >= channels) {
    out.mode = 2;
    count = channels;
  } else {
    out.mode = 3;
    count = D;
  }
  out.length = out.mode == 3 ? 1 : divide(D, count, rounding);
  for (std::uint64_t k = 0; k < count && k * out.length < D; ++k) {
    const std::uint64_t end = k + 1 == count ? D - 1 : std::min(D, (k + 1) * out.length) - 1;
    out.index.pieces.emplace_back(k * out.length, end);
  }
  out.index.dim = out.dim;
  return out;
}

std::uint32_t storage_instance(const StorageId& store, std::size_t piece, std::size_t pieces, std::uint32_t spaces) {
  if (store.instance) return store.instance;
  return std::uint32_t(piece * spaces / std::max<std::size_t>(pieces, 1)) + 1;
}

std::uint64_t data_size(const std::vector<std::uint64_t>& values, std::uint64_t element_bytes) {
  std::uint64_t bytes = element_bytes;
  for (auto v : values) bytes *= v;
  return bytes;
}

std::vector<std::uint64_t> operational_values(const StaticTag& s, const DynamicTag& d) {
  std::vector<std::uint64_t> out;
  for (char letter : d.order) {
    const auto at = s.order.find(letter);
    std::uint64_t v = at == std::string::npos ? 1 : s.values[at];
    for (const auto& p : d.padding)
      if (p.dim == letter) v += p.value;
    out.push_back(v);
  }
  return out;
}

}  // namespace npusim
