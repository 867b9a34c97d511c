#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "models/timing/BandwidthPort.h"

using namespace npusim;

TEST_CASE("a free port streams bytes at its bandwidth", "[timing]") {
  BandwidthPort port("p", "bus", 32.0);
  CHECK(port.reserve(0, 0, 64, false) == 2);    // 64 B at 32 B/cycle
  CHECK(port.reserve(10, 10, 33, true) == 12);  // partial cycle rounds up
  CHECK(port.stats().bytes_read == 64);
  CHECK(port.stats().bytes_written == 33);
  CHECK(port.stats().busy == 4);
}

TEST_CASE("concurrent users of a port queue behind each other", "[timing]") {
  BandwidthPort port("p", "dram_channel", 16.0);
  Cycles first = port.reserve(0, 0, 160, false);   // cycles 0..10
  Cycles second = port.reserve(0, 0, 160, false);  // must wait for the first
  CHECK(first == 10);
  CHECK(second == 20);
}

TEST_CASE("a later booking does not block an earlier transfer that fits in a gap", "[timing]") {
  BandwidthPort port("p", "scratchpad", 8.0);
  CHECK(port.reserve(0, 100, 80, true) == 110);  // booked for cycles 100..110
  CHECK(port.reserve(0, 0, 80, false) == 10);    // fits before it
  // 95..105 collides: its requests take 95..100, then go on after the booking, 110..115.
  CHECK(port.reserve(0, 95, 80, false) == 115);
  CHECK(port.stats().busy == 30);
}

TEST_CASE("a long transfer's requests fill the free cycles between other bookings", "[timing]") {
  BandwidthPort port("p", "scratchpad", 1.0);
  for (Cycles t = 10; t < 50; t += 10) port.reserve(0, t, 2, true);  // busy 10..12, 20..22, 30..32, 40..42
  // 30 cycles of requests from 5: 5..10, 12..20, 22..30, 32..40 (29 so far), then 42..43.
  CHECK(port.reserve(0, 5, 30, false) == 43);
  // The port is now full from 5 to 43: the next request waits for the end.
  CHECK(port.reserve(0, 0, 1, false) == 1);
  CHECK(port.reserve(0, 6, 1, false) == 44);
}

TEST_CASE("finished bookings are forgotten without changing later results", "[timing]") {
  BandwidthPort port("p", "bus", 1.0);
  for (Cycles t = 0; t < 1000; t += 2) port.reserve(t, t, 1, false);
  CHECK(port.reserve(1000, 1000, 5, false) == 1005);
  CHECK(port.stats().busy == 505);
}

// The calendar against the plainest model of the same rule: one flag per cycle, a booking
// takes the first `duration` free cycles from its earliest one.
TEST_CASE("random bookings match a cycle-by-cycle calendar", "[timing]") {
  std::mt19937_64 rng(5);
  for (int run = 0; run < 20; ++run) {
    BandwidthPort port("p", "bus", 1.0);  // one byte a cycle: duration = bytes
    std::vector<bool> busy(200000, false);
    Cycles now = 0;
    for (int booking = 0; booking < 300; ++booking) {
      now += rng() % 20;
      const Cycles earliest = now + rng() % 300;
      const std::uint64_t bytes = 1 + rng() % 40;
      Cycles at = earliest, left = bytes;
      for (; left > 0; ++at)
        if (!busy[at]) busy[at] = true, --left;
      INFO("run " << run << ", booking " << booking);
      REQUIRE(port.reserve(now, earliest, bytes, false) == at);
    }
  }
}

// A pitched DMA transfer books its rows as one batch (reserve_cycles): the port must end up
// exactly as if each row had been booked on its own from the same cycle.
TEST_CASE("a batch of requests books what the requests booked one by one would", "[timing]") {
  std::mt19937_64 rng(11);
  for (int run = 0; run < 50; ++run) {
    BandwidthPort one_by_one("a", "dram_channel", 32.0), batched("b", "dram_channel", 32.0);
    for (int i = 0; i < 20; ++i) {  // the same earlier traffic on both, with gaps
      const Cycles earliest = rng() % 400;
      const std::uint64_t bytes = 1 + rng() % 300;
      one_by_one.reserve(0, earliest, bytes, false);
      batched.reserve(0, earliest, bytes, false);
    }
    const Cycles earliest = rng() % 200;
    const std::uint64_t rows = 1 + rng() % 30;
    std::uint64_t bytes = 0;
    Cycles cycles = 0, last = 0;
    for (std::uint64_t r = 0; r < rows; ++r) {
      const std::uint64_t row = 1 + rng() % 100;  // not a whole number of cycles, mostly
      bytes += row;
      cycles += one_by_one.transfer_cycles(row);
      last = std::max(last, one_by_one.reserve(0, earliest, row, true));
    }
    INFO("run " << run);
    REQUIRE(batched.reserve_cycles(0, earliest, bytes, cycles, true) == last);
    CHECK(batched.stats().busy == one_by_one.stats().busy);
    CHECK(batched.stats().bytes_written == one_by_one.stats().bytes_written);
    // The calendars agree cycle by cycle: a one-cycle probe from every start lands alike.
    for (Cycles probe = 0; probe < 1500; probe += 7)
      REQUIRE(BandwidthPort(batched).reserve(0, probe, 1, false) == BandwidthPort(one_by_one).reserve(0, probe, 1, false));
  }
}
