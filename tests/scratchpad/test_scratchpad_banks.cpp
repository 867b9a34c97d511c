// Issue 33: NRAM/WRAM as SRAM banks. Requests on one bank queue, on different banks overlap;
// the per-bank request counts match a request-by-request reference.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "models/scratchpad/ScratchpadBanks.h"

using namespace npusim;

namespace {

BankConfig four_banks() {
  BankConfig b;
  b.count = 4;
  b.request_bytes = 64;
  b.interleave_bytes = 64;
  b.ports = 1;
  b.request_cycles = 1;
  return b;
}

// Request by request, byte range by byte range: which banks each aligned request touches.
std::vector<std::uint64_t> reference_counts(const BankConfig& b, std::uint64_t offset, std::uint64_t bytes) {
  std::vector<std::uint64_t> per_bank(b.count, 0);
  for (std::uint64_t r = offset / b.request_bytes; r * b.request_bytes < offset + bytes; ++r) {
    std::vector<bool> touched(b.count, false);
    for (std::uint64_t a = r * b.request_bytes; a < (r + 1) * b.request_bytes; ++a)
      touched[(a / b.interleave_bytes) % b.count] = true;
    for (std::uint32_t k = 0; k < b.count; ++k) per_bank[k] += touched[k];
  }
  return per_bank;
}

}  // namespace

TEST_CASE("banks: two requesters on one bank serialize", "[scratchpad][banks]") {
  ScratchpadBanks banks("nram", four_banks());
  // Bank of an address: (address / 64) mod 4. 0 and 256 are both bank 0.
  CHECK(banks.access(0, 0, 0, 64, false) == 1);
  CHECK(banks.access(0, 0, 256, 64, false) == 2);  // queued one request time behind the first
  CHECK(banks.counts().conflicts == 1);
  CHECK(banks.counts().wait_cycles == 1);
  // A strided read of 4 requests, 256 B apart, all on bank 0, then another requester on bank 0.
  ScratchpadBanks strided("nram", four_banks());
  CHECK(strided.access_strided(0, 0, 0, 4, 16, 256, false) == 4);
  CHECK(strided.access(0, 0, 1024, 64, true) == 5);
  CHECK(strided.counts().requests == 5);
}

TEST_CASE("banks: two requesters on different banks overlap", "[scratchpad][banks]") {
  ScratchpadBanks banks("nram", four_banks());
  CHECK(banks.access(0, 0, 0, 64, false) == 1);    // bank 0
  CHECK(banks.access(0, 0, 64, 64, false) == 1);   // bank 1
  CHECK(banks.access(0, 0, 704, 64, true) == 1);   // 704 / 64 = 11: bank 3
  CHECK(banks.counts().conflicts == 0);
  // 1 KiB contiguous: 16 requests, 4 on each bank, side by side.
  CHECK(banks.access(10, 10, 4096, 1024, false) == 14);
  // Strided reads of 16 B at a 47-B stride (Fig. 7b) spread over the banks.
  ScratchpadBanks fig7("nram", four_banks());
  // w0-w3 at 0, 47, 94, 141 lie in chunks 0, 0, 1, 2: two requests queue on bank 0 (not merged).
  CHECK(fig7.access_strided(0, 0, 0, 4, 16, 47, false) == 2);
  CHECK(fig7.counts().conflicts == 0);  // its own requests queueing is not a conflict
}

TEST_CASE("banks: a second port per bank serves two requests at once", "[scratchpad][banks]") {
  BankConfig dual = four_banks();
  dual.ports = 2;
  ScratchpadBanks banks("wram", dual);
  CHECK(banks.access(0, 0, 0, 64, false) == 1);
  CHECK(banks.access(0, 0, 256, 64, false) == 1);  // bank 0's second port
  CHECK(banks.access(0, 0, 512, 64, false) == 2);  // both ports busy: queues
  CHECK(banks.counts().conflicts == 1);
}

TEST_CASE("banks: per-bank request counts match a request-by-request reference", "[scratchpad][banks]") {
  std::mt19937 rng(33);
  for (int i = 0; i < 300; ++i) {
    BankConfig b;
    b.count = 1 + rng() % 8;
    b.request_bytes = 1u << (2 + rng() % 6);
    b.interleave_bytes = 1u << (2 + rng() % 7);  // narrower or wider than a request
    b.ports = 1;
    b.request_cycles = 1;
    const std::uint64_t offset = rng() % 5000, bytes = 1 + rng() % 6000;
    INFO("banks " << b.count << " request " << b.request_bytes << " interleave " << b.interleave_bytes << " ["
                  << offset << ", +" << bytes << ")");
    std::vector<std::uint64_t> counted(b.count, 0);
    ScratchpadBanks(std::string("x"), b).count_requests(offset, bytes, counted);
    CHECK(counted == reference_counts(b, offset, bytes));
  }
}

TEST_CASE("banks: a queued booking shows on its bank's timeline track", "[scratchpad][banks]") {
  struct Span {
    std::string track, name;
    Cycles start, end;
  };
  std::vector<Span> spans;
  BlockSpans sink;
  sink.connect([&](const std::string& track, const std::string& name, Cycles start, Cycles end) {
    spans.push_back({track, name, start, end});
  });
  ScratchpadBanks banks("core0.nram", four_banks());
  banks.trace_to(sink);
  banks.access(0, 0, 0, 256, false);   // one request on each bank, cycle 0
  banks.access(0, 0, 128, 64, true);   // bank 2 again: queued during cycle 0
  banks.access(0, 0, 64, 64, false);   // bank 1 again: queued during cycle 0
  REQUIRE(spans.size() == 2);
  CHECK(spans[0].track == "core0.nram.bank2");
  CHECK(spans[0].name == "queued");
  CHECK(spans[0].start == 0);
  CHECK(spans[0].end == 1);
  CHECK(spans[1].track == "core0.nram.bank1");
}
