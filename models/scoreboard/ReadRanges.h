#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "sim/trace/Instruction.h"

namespace npusim {

// A byte range an engine reads in one step of its work. `operand` is the trace
// operand it belongs to: staged dependencies count granules along its shape.
struct ReadRange {
  const TensorOperand* operand = nullptr;
  std::uint64_t begin = 0;  // absolute offsets in operand->space
  std::uint64_t end = 0;
};

// The ranges one step reads, in the order they were added. A matrix tile reads two
// (its input rows and its weights) and a vector chunk one or two, so two are kept in
// place; only a pitched DMA segment with more rows moves them to the heap. An LLM
// prefill has millions of tiles, and one allocation each was a visible share of host time.
class ReadRanges {
 public:
  ReadRanges() = default;
  ReadRanges(std::initializer_list<ReadRange> ranges) {
    reserve(ranges.size());
    for (const ReadRange& r : ranges) push_back(r);
  }
  ReadRanges(const ReadRanges&) = default;
  ReadRanges& operator=(const ReadRanges&) = default;
  // A moved-from list is left empty, not with a count its in-place slots do not hold.
  ReadRanges(ReadRanges&& o) noexcept
      : in_place_(o.in_place_), heap_(std::move(o.heap_)), size_(std::exchange(o.size_, 0)) {
    o.heap_.clear();
  }
  ReadRanges& operator=(ReadRanges&& o) noexcept {
    in_place_ = o.in_place_;
    heap_ = std::move(o.heap_);
    size_ = std::exchange(o.size_, 0);
    o.heap_.clear();
    return *this;
  }
  void push_back(const ReadRange& r) {
    if (heap_.empty() && size_ < kInPlace) {
      in_place_[size_++] = r;
      return;
    }
    if (heap_.empty()) heap_.assign(in_place_.begin(), in_place_.begin() + size_);
    heap_.push_back(r);
    ++size_;
  }
  // Only a count above what is kept in place needs room set aside.
  void reserve(std::size_t n) {
    if (n > kInPlace) heap_.reserve(n);
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const ReadRange* begin() const { return heap_.empty() ? in_place_.data() : heap_.data(); }
  const ReadRange* end() const { return begin() + size_; }
  const ReadRange& operator[](std::size_t i) const { return begin()[i]; }

 private:
  static constexpr std::size_t kInPlace = 2;
  std::array<ReadRange, kInPlace> in_place_{};
  std::vector<ReadRange> heap_;  // all the ranges once there are more than kInPlace
  std::size_t size_ = 0;
};

}  // namespace npusim
