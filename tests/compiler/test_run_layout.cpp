// The NUMA layout rule (apps/compiler/emit/RunLayout.h): the busiest channel or link a
// layout costs, checked against cycles worked out by hand, and the layout it picks.
#include <catch2/catch.hpp>

#include "apps/compiler/emit/RunLayout.h"

using namespace npusim;

namespace {

// Two memories, one channel each at 32 B/cycle, the link between the clusters at `link`.
FabricRates two_memories(double link = 32) { return {2, 32, link}; }

}  // namespace

TEST_CASE("NUMA layout: the busiest channel or link of an activation, by hand", "[numa][compiler]") {
  // 8 rows of 32 B all in memory 1; one cluster (memory 0) reads them all: channel 1
  // serves 256 B (8 cycles), the link carries the same 256 B (8 cycles at 32, 16 at 16).
  const MemoryRuns all_in_one = {{8, 1}};
  const std::vector<RowAccess> remote_reader = {{0, 8, 32, 0}};
  CHECK(busiest_cycles(all_in_one, remote_reader, two_memories(), FabricLoad(2)) == 8);
  CHECK(busiest_cycles(all_in_one, remote_reader, two_memories(16), FabricLoad(2)) == 16);
  // Half in each memory: 128 B per channel (4 cycles), 128 B over the link (4 cycles).
  CHECK(busiest_cycles({{4, 0}, {4, 1}}, remote_reader, two_memories(), FabricLoad(2)) == 4);
  // A quarter of each row (8 B) counts a quarter of the bytes: 64 B on channel 1, 2 cycles.
  CHECK(busiest_cycles(all_in_one, {{0, 8, 8, 1}}, two_memories(), FabricLoad(2)) == 2);
}

TEST_CASE("NUMA layout: rows move from an over-full memory to the others, in row order", "[numa][compiler]") {
  // 6 rows in memory 0 and 2 in memory 1: an even share is 4, so the last 2 of memory 0's
  // run go to memory 1, next to its own.
  CHECK(balance_runs({{6, 0}, {2, 1}}, 2) == MemoryRuns{{4, 0}, {4, 1}});
  CHECK(balance_runs({{8, 1}}, 2) == MemoryRuns{{4, 1}, {4, 0}});
  // Within an eighth of an even share (9 against 8 of 16): unchanged.
  CHECK(balance_runs({{9, 0}, {7, 1}}, 2) == MemoryRuns{{9, 0}, {7, 1}});
}

TEST_CASE("NUMA layout: the rule picks the layout with the fewest busy cycles, ties stay local", "[numa][compiler]") {
  // The producer's clusters each write half of 8 rows of 32 B; one cluster (memory 1)
  // then reads them all, as a global pool on one core does.
  const std::vector<RowAccess> writes = {{0, 4, 32, 0}, {4, 8, 32, 1}}, reads = {{0, 8, 32, 1}};
  const MemoryRuns reader_runs = {{8, 1}}, producer_runs = {{4, 0}, {4, 1}};
  // By hand: the reader's runs: writes 8 cycles (channel 1 takes 256 B), reads 8 -> 16.
  // Balanced reader's runs (rows 0-3 in memory 1, 4-7 in memory 0): every write is
  // remote, the link carries 256 B -> 8; reads 4 -> 12. The producer's runs: writes 4
  // (each channel 128 B, all local), reads 4 (128 B per channel and over the link) -> 8.
  CHECK(fastest_layout({reader_runs}, writes, reads, two_memories(), FabricLoad(2), FabricLoad(2)) == MemoryRuns{{4, 1}, {4, 0}});
  CHECK(fastest_layout({reader_runs, producer_runs}, writes, reads, two_memories(), FabricLoad(2), FabricLoad(2)) == producer_runs);
  // Each cluster reads the half it wrote: local runs cost 4 + 4, as does nothing better.
  const std::vector<RowAccess> own_half = writes;
  CHECK(fastest_layout({producer_runs}, writes, own_half, two_memories(), FabricLoad(2), FabricLoad(2)) == producer_runs);
  // A tie between two layouts keeps the first (the preferred local one).
  CHECK(fastest_layout({{{4, 1}, {4, 0}}, producer_runs}, {}, {}, two_memories(), FabricLoad(2), FabricLoad(2)) == MemoryRuns{{4, 1}, {4, 0}});
}

TEST_CASE("NUMA layout: a link the layer's weights keep busy keeps the rows local", "[numa][compiler]") {
  // 8 rows of 32 B: cluster 0 (memory 0) reads rows 0-5, cluster 1 rows 6-7.
  const std::vector<RowAccess> reads = {{0, 6, 32, 0}, {6, 8, 32, 1}};
  const MemoryRuns local = {{6, 0}, {2, 1}}, balanced = {{4, 0}, {4, 1}};
  // Alone: local 192 B on channel 0 (6 cycles); balanced 128 B per channel, 64 B over the
  // link (4 cycles).
  CHECK(fastest_layout({local}, {}, reads, two_memories(), FabricLoad(2), FabricLoad(2)) == balanced);
  // The reader's shared weights put 128 B on each channel and 256 B on the link: local
  // 320 B on channel 0 (10 cycles), balanced 320 B on the link (10 cycles): a tie, local.
  FabricLoad weights(2);
  weights.add(0, 1, 128);  // cluster 1 takes memory 0's half over the link
  weights.add(1, 0, 128);  // and cluster 0 memory 1's
  CHECK(weights.channel == std::vector<double>{128, 128});
  CHECK(weights.link[1] == 256);
  CHECK(busiest_cycles(local, reads, two_memories(), weights) == 10);
  CHECK(busiest_cycles(balanced, reads, two_memories(), weights) == 10);
  CHECK(fastest_layout({local}, {}, reads, two_memories(), FabricLoad(2), weights) == local);
}

TEST_CASE("NUMA layout: model-mode weights spread over the memories only where the links stay less busy",
          "[numa][compiler]") {
  // 2 memories, each cluster reads half of 4096 B of weights: spread, each memory serves
  // 1024 B of each cluster's half (2048 B per channel) and the one link carries both
  // remote quarters, 2048 B: as busy as a channel, so the copies stay local.
  const FabricLoad two = spread_load({2048, 2048}, 2);
  CHECK(two.channel == std::vector<double>{2048, 2048});
  CHECK(two.link[1] == 2048);
  CHECK_FALSE(links_less_busy(two, two_memories()));
  // 4 memories, each cluster a quarter (1024 B): each channel serves 4 x 256 B = 1024 B,
  // each of the 6 links 256 B each way = 512 B: the links stay less busy, spread.
  const FabricLoad four = spread_load({1024, 1024, 1024, 1024}, 4);
  CHECK(four.channel == std::vector<double>{1024, 1024, 1024, 1024});
  CHECK(four.link[0 * 4 + 1] == 512);
  CHECK(four.link[2 * 4 + 3] == 512);
  CHECK(links_less_busy(four, {4, 32, 32}));
  // A link half as wide as a channel is as busy as one: local copies.
  CHECK_FALSE(links_less_busy(four, {4, 32, 16}));
}
