#include <catch2/catch.hpp>

#include <cstdint>
#include <tuple>
#include <vector>

#include "sim/trace/Instruction.h"

using namespace npusim;

namespace {

using Run = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>;  // address, first, count

// The reference: the tensor's bytes one by one at their addresses (address_of), runs
// joined wherever both the address and the byte number go on by one and no row ends.
std::vector<Run> runs_byte_by_byte(const TensorOperand& t, std::uint64_t begin, std::uint64_t end) {
  std::vector<Run> runs;
  for (std::uint64_t i = begin; i < end; ++i) {
    const std::uint64_t address = t.address_of(i);
    if (!runs.empty()) {
      auto& [at, first, count] = runs.back();
      if (at + count == address && first + count == i && i % t.row_bytes() != 0) {
        ++count;
        continue;
      }
    }
    runs.emplace_back(address, i, 1);
  }
  return runs;
}

std::vector<Run> runs_of(const TensorOperand& t, std::uint64_t begin, std::uint64_t end) {
  std::vector<Run> runs;
  for_each_run(t, begin, end, [&](std::uint64_t address, std::uint64_t first, std::uint64_t count) {
    runs.emplace_back(address, first, count);
  });
  return runs;
}

}  // namespace

TEST_CASE("for_each_run of a pitched window: one run per row touched, at the addresses byte by byte", "[trace]") {
  TensorOperand t;
  t.offset = 1000;
  t.shape = {3, 4, 24};  // 12 rows of 24 int16 elements: 48 bytes a row
  t.dtype = DType::Int16;
  t.pitch = 80;
  const std::uint64_t bytes = t.bytes();
  // Whole tensor, whole rows, cut at both ends, inside one row, a single byte, empty.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> spans = {
      {0, bytes}, {48, 240}, {5, 300}, {50, 90}, {47, 49}, {100, 101}, {7, 7}, {bytes - 1, bytes}};
  for (const auto& [begin, end] : spans) {
    INFO("bytes [" << begin << ", " << end << ")");
    CHECK(runs_of(t, begin, end) == runs_byte_by_byte(t, begin, end));
  }
}

TEST_CASE("for_each_run of a dense tensor is one run from its offset", "[trace]") {
  TensorOperand t;
  t.offset = 64;
  t.shape = {2, 5, 16};
  CHECK(runs_of(t, 10, 150) == std::vector<Run>{{74, 10, 140}});
}
