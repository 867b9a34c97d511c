// The heap activations share when the DRAM is reused (issue 28): best fit among freed
// blocks, growth from the top down, merged neighbours, and which dead tensors held the
// bytes a new one takes.
#include <catch2/catch.hpp>

#include <algorithm>

#include "apps/compiler/emit/ActivationHeap.h"

using namespace npusim;

TEST_CASE("activation heap: grows down from the top and hands freed blocks to later tensors", "[compiler][dram_reuse]") {
  ActivationHeap heap(1 << 20);
  std::vector<int> previous;
  const std::uint64_t a = heap.allocate(4096, previous), b = heap.allocate(1024, previous);
  CHECK(a == (1 << 20) - 4096);
  CHECK(b == a - 1024);
  CHECK(previous.empty());  // fresh bytes
  CHECK(heap.depth() == 5120);
  heap.release(a, 4096, 0);
  const std::uint64_t c = heap.allocate(1024, previous);  // the top 1 KiB of a's block
  CHECK(c == (1 << 20) - 1024);
  CHECK(previous == std::vector<int>{0});
  CHECK(heap.depth() == 5120);  // no growth: it fit in a's bytes
}

TEST_CASE("activation heap: best fit, and merged neighbours remember every tensor they held", "[compiler][dram_reuse]") {
  ActivationHeap heap(1 << 20);
  std::vector<int> ignored;
  const std::uint64_t a = heap.allocate(2048, ignored), b = heap.allocate(512, ignored), c = heap.allocate(1024, ignored);
  heap.allocate(256, ignored);  // keeps c's block from touching the heap's bottom
  heap.release(a, 2048, 1);
  heap.release(c, 1024, 3);
  std::vector<int> previous;
  CHECK(heap.allocate(1024, previous) == c);  // the 1 KiB block fits exactly, not the 2 KiB one
  CHECK(previous == std::vector<int>{3});
  heap.release(b, 512, 2);  // merges with a's block above it
  previous.clear();
  CHECK(heap.allocate(2560, previous) == b);  // a's and b's bytes, now one block
  std::sort(previous.begin(), previous.end());
  CHECK(previous == std::vector<int>{1, 2});
}

TEST_CASE("activation heap: a block too small at the bottom is extended downward", "[compiler][dram_reuse]") {
  ActivationHeap heap(1 << 20);
  std::vector<int> ignored;
  heap.allocate(1024, ignored);
  const std::uint64_t low = heap.allocate(512, ignored);
  heap.release(low, 512, 7);
  std::vector<int> previous;
  CHECK(heap.allocate(2048, previous) == (1 << 20) - 1024 - 2048);
  CHECK(previous == std::vector<int>{7});
  CHECK(heap.depth() == 3072);
}
