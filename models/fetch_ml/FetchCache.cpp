#include "models/fetch_ml/FetchCache.h"

#include <algorithm>
#include <cstring>

namespace npusim {

FetchCache::FetchCache(sc_core::sc_module_name name, const Shape& shape, bool functional)
    : sc_module(name), shape_(shape), functional_(functional) {
  if (shape.bytes == 0) return;
  sets_ = shape.bytes / (shape.line_bytes * shape.ways);
  ways_.resize(sets_ * shape.ways);
  if (functional) bytes_.resize(sets_ * shape.ways * shape.line_bytes);
}

FetchCache::Way* FetchCache::find(std::uint64_t line) {
  Way* set = &ways_[(line % sets_) * shape_.ways];
  for (std::uint32_t w = 0; w < shape_.ways; ++w)
    if (set[w].used && set[w].line == line) return &set[w];
  return nullptr;
}

const FetchCache::Way* FetchCache::find(std::uint64_t line) const {
  return const_cast<FetchCache*>(this)->find(line);
}

bool FetchCache::lookup(std::uint64_t line) {
  Way* way = find(line);
  if (way) way->used = ++clock_;
  return way != nullptr;
}

void FetchCache::fill(std::uint64_t line, const std::uint8_t* data) {
  Way* set = &ways_[(line % sets_) * shape_.ways];
  Way* victim = find(line);
  if (!victim) victim = std::min_element(set, set + shape_.ways, [](const Way& a, const Way& b) { return a.used < b.used; });
  victim->line = line;
  victim->used = ++clock_;
  if (functional_ && data)
    std::memcpy(&bytes_[std::uint64_t(victim - ways_.data()) * shape_.line_bytes], data, shape_.line_bytes);
}

const std::uint8_t* FetchCache::data(std::uint64_t line) const {
  const Way* way = find(line);
  return way && functional_ ? &bytes_[std::uint64_t(way - ways_.data()) * shape_.line_bytes] : nullptr;
}

void FetchCache::invalidate_all() {
  for (Way& w : ways_) w.used = 0;
}

void FetchCache::invalidate(std::uint64_t address, std::uint64_t bytes) {
  if (!fitted() || bytes == 0) return;
  const std::uint64_t first = address / shape_.line_bytes, last = (address + bytes - 1) / shape_.line_bytes;
  if (last - first >= ways_.size()) {  // a long range: look at every held line instead
    for (Way& w : ways_)
      if (w.line >= first && w.line <= last) w.used = 0;
    return;
  }
  for (std::uint64_t line = first; line <= last; ++line)
    if (Way* way = find(line)) way->used = 0;
}

}  // namespace npusim
