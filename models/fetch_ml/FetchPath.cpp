// The fetch path of state machine 206 beyond the plain requests (seed003 ¶25, ¶[0047],
// ¶[0050], ¶[0051]): reads through the fetch-path cache, ml_preload, and the walk that
// auto-fetch follows.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "models/fetch_ml/FetchMlStateMachine.h"
#include "models/kernel/SimTime.h"
#include "models/kernel/TlmTransfer.h"

namespace npusim {

Cycles FetchMlStateMachine::read_source(const TensorOperand& t, std::uint8_t* data, Cycles start, bool allocate,
                                        CacheUse& use, std::uint64_t& memory_bytes) {
  if (!cache_.fitted() || t.space != AddressSpace::Dram) {
    memory_bytes = t.bytes();
    *counters_.memory_bytes += memory_bytes;
    return memory_transfer(tlm::TLM_READ_COMMAND, t, data, start);
  }
  Cycles done = start, issue = start;
  for_each_run(t, 0, t.bytes(), [&](std::uint64_t address, std::uint64_t first, std::uint64_t count) {
    done = std::max(done, cached_run(address, count, data ? data + first : nullptr, issue, allocate, use, memory_bytes));
  });
  *counters_.memory_bytes += memory_bytes;
  return done;
}

// Runs of lines alike (all held, or all missing): held ones are served at cache_hit_cycles,
// missing ones are read whole from memory and, unless the fetch streams, kept.
Cycles FetchMlStateMachine::cached_run(std::uint64_t address, std::uint64_t count, std::uint8_t* data, Cycles& issue,
                                       bool allocate, CacheUse& use, std::uint64_t& memory_bytes) {
  const std::uint64_t L = cache_.line_bytes(), last = (address + count - 1) / L;
  Cycles done = issue;
  std::vector<std::uint8_t> lines;
  for (std::uint64_t line = address / L; line <= last;) {
    const bool hit = cache_.holds(line);
    std::uint64_t end = line + 1;
    while (end <= last && cache_.holds(end) == hit) ++end;
    const std::uint64_t from = std::max(address, line * L), to = std::min(address + count, end * L);
    if (data) lines.assign((end - line) * L, 0);
    if (hit) {
      for (std::uint64_t l = line; l < end; ++l) {
        cache_.lookup(l);
        if (data) std::memcpy(&lines[(l - line) * L], cache_.data(l), L);
      }
      done = std::max(done, issue + cfg_.cache_hit_cycles);
      issue += Cycles(std::ceil(double(to - from) / cfg_.bytes_per_cycle));
      use.hits += end - line;
      use.hit_bytes += to - from;
    } else {
      done = std::max(done, read_lines(line, end, data ? lines.data() : nullptr, issue, allocate) +
                                cfg_.cache_miss_cycles);
      use.misses += end - line;
      memory_bytes += (end - line) * L;
    }
    if (data) std::memcpy(data + (from - address), &lines[from - line * L], to - from);
    line = end;
  }
  return done;
}

Cycles FetchMlStateMachine::read_lines(std::uint64_t first, std::uint64_t end, std::uint8_t* bytes, Cycles& issue,
                                       bool allocate) {
  const std::uint64_t L = cache_.line_bytes(), total = (end - first) * L;
  Cycles done = issue;
  for (std::uint64_t at = 0; at < total; at += cfg_.request_bytes) {
    const std::uint64_t n = std::min(cfg_.request_bytes, total - at);
    done = std::max(done, tlm_transfer(*dram_port.operator->(), tlm::TLM_READ_COMMAND, first * L + at, n,
                                       bytes ? bytes + at : nullptr, issue, name()));
    issue += Cycles(std::ceil(double(n) / cfg_.bytes_per_cycle));
    ++*counters_.requests;
    address_generator_.count_fetch(1);
  }
  if (!allocate) return done;
  for (std::uint64_t l = first; l < end; ++l) cache_.fill(l, bytes ? bytes + (l - first) * L : nullptr);
  *counters_.cache_fill_bytes += total;
  return done;
}

// ml_preload (seed003 ¶25, ¶[0050]): the lines of a later fetch's tile into the cache,
// nothing into the register file. Without a cache it reads nothing.
Engine::Work FetchMlStateMachine::preload(const Instruction& inst) {
  const auto [g, tile] = decode(inst);
  const bool ifm = inst.params.at("data") == "ifm";
  expected_source(inst, g, tile, ifm);
  const TensorOperand& src = inst.inputs.at(0);
  ++*counters_.preloads;
  if (!cache_.fitted()) return {};
  CacheUse use;
  std::uint64_t memory_bytes = 0;
  const bool functional = setup().functional;
  if (functional) staging_.assign(src.bytes(), 0);
  const Cycles done = read_source(src, functional ? staging_.data() : nullptr, now_cycles() + cfg_.setup_cycles, true,
                                  use, memory_bytes);
  *counters_.preload_bytes += memory_bytes;
  wait_until(done);
  return {memory_bytes, 0};  // its lines are not fetch lookups: the report counts its bytes as preloaded
}

// An automatic fetch is the next step of the walk the registers describe: the image run
// after the last one fetched, or a whole filter block.
void FetchMlStateMachine::check_auto(const Instruction& inst, const ConvShape& g, const MlTile& tile, bool ifm) const {
  const std::uint64_t J = registers_.get(ControlRegister::TilePositions);
  const std::uint64_t F = registers_.get(ControlRegister::TileFilters);
  if (registers_.get(ControlRegister::AutoFetch) != 1 || J == 0 || F == 0)
    fail_instruction(inst, "an automatic fetch needs the auto_fetch control register set to 1 and tile_positions "
                           "and tile_filters set (ml_set)");
  if (ifm) {
    if (!last_run_)
      fail_instruction(inst, "the first image fetch after the registers are set is the program's: it cannot be auto");
    const PositionRange want = AddressGenerator::next_run(g, J, *last_run_);
    const PositionRange& p = tile.positions;
    if (p.image != want.image || p.first != want.first || p.count != want.count)
      fail_instruction(inst, fmt::format("an automatic fetch follows the walk: image {} positions [{}, {}) come "
                                        "next, not image {} [{}, {})",
                                        want.image, want.first, want.first + want.count, p.image, p.first,
                                        p.first + p.count));
    return;
  }
  if (tile.first_filter % F != 0 || tile.filters != std::min<std::uint64_t>(F, g.co - tile.first_filter))
    fail_instruction(inst, fmt::format("an automatic weight fetch loads a whole block of {} filters of the walk, "
                                      "not [{}, {})",
                                      F, tile.first_filter, tile.first_filter + tile.filters));
}

void FetchMlStateMachine::note_walk(const MlTile& tile, bool ifm) {
  if (ifm) last_run_ = tile.positions;
}

}  // namespace npusim
