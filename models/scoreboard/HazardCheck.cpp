#include "models/scoreboard/HazardCheck.h"

#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

namespace {

// Where the instruction came from: its trace line, its layer, or both.
std::string origin(const Progress& p) {
  if (p.layer.empty()) return fmt::format("line {}", p.line);
  if (p.line == 0) return fmt::format("layer '{}'", p.layer);
  return fmt::format("line {}, layer '{}'", p.line, p.layer);
}

std::string describe(const Progress& p) { return fmt::format("instruction {} ({}, {})", p.id, p.op, origin(p)); }

std::string declared(const Progress& consumer, std::uint64_t producer) {
  for (const auto& d : consumer.deps)
    if (d.producer == producer)
      return d.mode == DependencyMode::Staged
                 ? fmt::format("its staged dependency with granularity '{}' releases it too early", d.granularity)
                 : fmt::format("its {} dependency releases it too early", dependency_mode_name(d.mode));
  return "it declares no dependency on it";
}

[[noreturn]] void fail(const Progress& reader, const std::string& reason) {
  throw InputError("", origin(reader), "dependency hazard: " + reason);
}

// A core's own memories (NRAM, WRAM, register file) are not another core's: no read of
// the one can see a write to the other (same_memory), so the step loops are skipped.
bool other_cores_memory(const Progress& reader, const Progress& writer) {
  const AddressSpace s = writer.output.space;
  return s != AddressSpace::Dram && s != AddressSpace::Cluster && reader.at.core != writer.at.core;
}

// Whether some step of `reader` may read bytes of `writer`'s output: its read extent in
// the output's memory overlaps the output's span. Most pairs in flight on a many-core chip
// share nothing, and this answers for them without walking the reader's steps.
bool may_read(const Progress& reader, const Progress& writer) {
  if (!writer.writes || other_cores_memory(reader, writer)) return false;
  const TensorOperand& out = writer.output;
  const std::uint32_t memory = memory_of(out, writer.at);
  return std::any_of(reader.read_extents.begin(), reader.read_extents.end(), [&](const ReadExtent& e) {
    return e.space == out.space && e.memory == memory && e.begin < writer.output_end && e.end > out.offset;
  });
}

// `reader` steps must not read bytes of `writer` before they are final.
void check_reads(const Progress& reader, const Progress& writer) {
  if (!may_read(reader, writer)) return;
  const TensorOperand& out = writer.output;
  for (const ReadStep& step : reader.steps) {
    for (const ReadRange& r : step.reads) {
      if (!same_memory(*r.operand, reader.at, out, writer.at)) continue;
      if (!out.touches(r.begin, r.end)) continue;
      const std::uint64_t need = out.bytes_before(r.end);
      const std::uint64_t have = writer.written_by(step.read_start);
      if (have >= need) continue;
      fail(reader, fmt::format("{} reads {} bytes [{}, {}) at cycle {}, but {} has made only {} of the {} bytes it "
                               "needs final by then; {}",
                               describe(reader), address_space_name(out.space), std::max(r.begin, out.offset),
                               std::min(r.end, out.end()), step.read_start, describe(writer), have, need,
                               declared(reader, writer.id)));
    }
  }
}

// The first byte of `writer`'s output that a step of `reader` reads, if the
// writer overwrites it before that step has finished reading.
struct Overwrite {
  std::uint64_t address = 0;
  Cycles at = 0;
  const ReadStep* step = nullptr;
};

std::optional<Overwrite> overwrite_before_read(const Progress& writer, const Progress& reader) {
  if (!may_read(reader, writer)) return std::nullopt;
  const TensorOperand& out = writer.output;
  for (const ReadStep& step : reader.steps) {
    for (const ReadRange& r : step.reads) {
      if (!same_memory(*r.operand, reader.at, out, writer.at) || !out.touches(r.begin, r.end)) continue;
      const std::uint64_t first = out.bytes_before(r.begin);
      const Cycles overwritten = writer.time_written(first + 1);
      if (overwritten < step.read_done) return Overwrite{out.address_of(first), overwritten, &step};
    }
  }
  return std::nullopt;
}

// The instruction whose value `reader` should have found at `address` (where
// `clobberer` wrote): the last writer of that byte before `reader` in program
// order, if the scoreboard still knows it.
const Progress* value_writer(const Progress& reader, const Progress& clobberer, std::uint64_t address,
                             const KnownWriters& known) {
  const Progress* best = nullptr;
  auto consider = [&](const Progress& w) {
    if (w.id >= reader.id || !w.writes || (best && best->id > w.id)) return;
    if (same_memory(w.output, w.at, clobberer.output, clobberer.at) && w.output.touches(address, address + 1))
      best = &w;
  };
  for (const auto& entry : known.in_flight) consider(entry.second);
  for (const Progress& w : known.retired) consider(w);
  return best;
}

// " (the value instruction 0 (load, line 2) wrote)", when that writer is known.
std::string lost_value(const Progress* first_writer) {
  return first_writer ? fmt::format(" (the value {} wrote)", describe(*first_writer)) : std::string();
}

// Write after read, both in flight: `writer` must not overwrite bytes `reader`
// (earlier in program order) is still reading.
void check_overwrites(const Progress& writer, const Progress& reader, const KnownWriters& known) {
  const auto o = overwrite_before_read(writer, reader);
  if (!o) return;
  fail(writer, fmt::format("{} overwrites {} bytes from offset {} at cycle {}, but {} still reads them{} until "
                           "cycle {}; {}",
                           describe(writer), address_space_name(writer.output.space), o->address, o->at,
                           describe(reader), lost_value(value_writer(reader, writer, o->address, known)),
                           o->step->read_done, declared(writer, reader.id)));
}

// Write after write on a live value: `writer` finished before `reader`, earlier
// in program order, even started, and replaced the value it was to read.
void check_clobbered(const Progress& reader, const Progress& writer, const KnownWriters& known) {
  if (writer.id < reader.id) return;
  const auto o = overwrite_before_read(writer, reader);
  if (!o) return;
  const Progress* first_writer = value_writer(reader, writer, o->address, known);
  fail(writer, fmt::format("write after write on a live value: {} overwrote {} bytes from offset {} at cycle {}{}, "
                           "but {}, earlier in program order, still needed {} and reads them at cycle {}; {}",
                           describe(writer), address_space_name(writer.output.space), o->address, o->at,
                           first_writer ? " that " + describe(*first_writer) + " wrote" : std::string(),
                           describe(reader), first_writer ? "that value" : "the value written before",
                           o->step->read_start, declared(writer, reader.id)));
}

}  // namespace

std::vector<ReadExtent> read_extents_of(const Progress& p) {
  std::vector<ReadExtent> extents;
  for (const ReadStep& step : p.steps)
    for (const ReadRange& r : step.reads) {
      const AddressSpace space = r.operand->space;
      const std::uint32_t memory = memory_of(*r.operand, p.at);
      auto it = std::find_if(extents.begin(), extents.end(),
                             [&](const ReadExtent& e) { return e.space == space && e.memory == memory; });
      if (it == extents.end())
        extents.push_back({space, memory, r.begin, r.end});
      else
        it->begin = std::min(it->begin, r.begin), it->end = std::max(it->end, r.end);
    }
  return extents;
}

void check_hazards(const Progress& incoming, const KnownWriters& known) {
  for (const auto& [id, other] : known.in_flight) {
    if (id < incoming.id) {
      check_reads(incoming, other);
      check_overwrites(incoming, other, known);
    } else if (id > incoming.id) {
      // A later instruction already started: it must not have read what we
      // write, nor overwrite what we read.
      check_reads(other, incoming);
      check_overwrites(other, incoming, known);
    }
  }
  for (const Progress& writer : known.retired) check_clobbered(incoming, writer, known);
}

}  // namespace npusim
