#include "models/controller/HazardCheck.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

namespace {

std::string describe(const Progress& p) { return fmt::format("instruction {} ({}, line {})", p.id, p.op, p.line); }

std::string declared(const Progress& consumer, std::uint64_t producer) {
  for (const auto& d : consumer.deps)
    if (d.producer == producer)
      return d.mode == DependencyMode::Staged
                 ? fmt::format("its staged dependency with granularity '{}' releases it too early", d.granularity)
                 : fmt::format("its {} dependency releases it too early", dependency_mode_name(d.mode));
  return "it declares no dependency on it";
}

[[noreturn]] void fail(const Progress& reader, const std::string& reason) {
  throw InputError("", fmt::format("line {}", reader.line), "dependency hazard: " + reason);
}

// `reader` steps must not read bytes of `writer` before they are final.
void check_reads(const Progress& reader, const Progress& writer) {
  if (!writer.writes) return;
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

// `writer` must not overwrite bytes `reader` (earlier in program order) still reads.
void check_overwrites(const Progress& writer, const Progress& reader) {
  if (!writer.writes) return;
  const TensorOperand& out = writer.output;
  for (const ReadStep& step : reader.steps) {
    for (const ReadRange& r : step.reads) {
      if (!same_memory(*r.operand, reader.at, out, writer.at)) continue;
      if (!out.touches(r.begin, r.end)) continue;
      const std::uint64_t first = out.bytes_before(r.begin);
      const Cycles overwritten = writer.time_written(first + 1);
      if (overwritten >= step.read_done) continue;
      fail(writer, fmt::format("{} overwrites {} bytes from offset {} at cycle {}, but {} still reads them until "
                               "cycle {}; {}",
                               describe(writer), address_space_name(out.space), out.address_of(first), overwritten,
                               describe(reader), step.read_done, declared(writer, reader.id)));
    }
  }
}

}  // namespace

void check_clobbered(const Progress& incoming, const std::vector<Progress>& retired) {
  for (const Progress& writer : retired) {
    if (writer.id < incoming.id) continue;
    const TensorOperand& out = writer.output;
    for (const ReadStep& step : incoming.steps) {
      for (const ReadRange& r : step.reads) {
        if (!same_memory(*r.operand, incoming.at, out, writer.at) || !out.touches(r.begin, r.end)) continue;
        const std::uint64_t first = out.bytes_before(r.begin);
        const Cycles overwritten = writer.time_written(first + 1);
        if (overwritten >= step.read_done) continue;
        fail(writer, fmt::format("write after write on a live value: {} overwrote {} bytes from offset {} at cycle {}, "
                                 "but {}, earlier in program order, still needed the value written before and reads "
                                 "them at cycle {}; {}",
                                 describe(writer), address_space_name(out.space), out.address_of(first), overwritten,
                                 describe(incoming), step.read_start, declared(writer, incoming.id)));
      }
    }
  }
}

void check_hazards(const Progress& incoming, const std::unordered_map<std::uint64_t, Progress>& in_flight) {
  for (const auto& [id, other] : in_flight) {
    if (id < incoming.id) {
      check_reads(incoming, other);
      check_overwrites(incoming, other);
    } else if (id > incoming.id) {
      // A later instruction already started: it must not have read what we
      // write, nor overwrite what we read.
      check_reads(other, incoming);
      check_overwrites(other, incoming);
    }
  }
}

}  // namespace npusim
