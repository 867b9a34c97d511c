// How a consumer's steps are released by its producers (seed004 §2.4):
//  full      - every step waits for the producer's real end;
//  two_phase - every step waits for the producer's early end flag: the bytes the
//              consumer reads are final and the producer has let go of its
//              source and bus (a store whose data is in the bus buffer);
//  staged    - step k waits only for the producer's stage flags covering it,
//              counted in granules of the declared granularity.
// A dependency that shares no bytes is a hardware (bus) dependency: two_phase and
// staged release it at the producer's release point.
#include <algorithm>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "models/scoreboard/Scoreboard.h"

namespace npusim {

namespace {

const std::string kFinished = "finished";  // the producer of a wait on an instruction that had completed

bool overlaps(const ReadRange& r, Viewpoint consumer, const Progress& p) {
  return p.writes && same_memory(*r.operand, consumer, p.output, p.at) && p.output.touches(r.begin, r.end);
}

// Output bytes of `p` a read of `r` waits for under a staged dependency. The
// consumer trusts the granule correspondence the trace declares: its granule k
// (counted along its own operand) is the producer's granule k.
std::uint64_t staged_need(const ReadRange& r, const Progress& p, const std::string& granularity) {
  const TensorOperand& out = p.output;
  if (granularity == "tiles") {
    const std::uint64_t g = granule_bytes(out, granularity, p.tile_bytes);
    return std::min(out.bytes(), (out.bytes_before(r.end) + g - 1) / g * g);
  }
  const std::uint64_t mine = granule_bytes(*r.operand, granularity, 0);
  const std::uint64_t index = (std::max<std::uint64_t>(r.operand->bytes_before(r.end), 1) - 1) / mine;
  return std::min(out.bytes(), (index + 1) * granule_bytes(out, granularity, 0));
}

}  // namespace

void Scoreboard::announce_flags(Progress& producer, const Dependency& dep) {
  if (!on_flag || flagged_[producer.id]) return;
  flagged_[producer.id] = true;
  if (dep.mode == DependencyMode::TwoPhase) {
    on_flag(producer.engine, fmt::format(FMT_COMPILE("end flag #{}"), producer.id), producer.release);
    return;
  }
  if (!producer.writes) return;
  const std::uint64_t g = granule_bytes(producer.output, dep.granularity, producer.tile_bytes);
  const std::uint64_t stages = (producer.output.bytes() + g - 1) / g;
  // A timeline with thousands of flags per instruction is unreadable; show the first ones.
  const std::uint64_t shown = std::min<std::uint64_t>(stages, 64);
  for (std::uint64_t k = 0; k < shown; ++k)
    on_flag(producer.engine, fmt::format(FMT_COMPILE("stage {}/{} #{}"), k + 1, stages, producer.id),
            producer.time_written(std::min(producer.output.bytes(), (k + 1) * g)));
}

std::vector<Cycles> Scoreboard::step_gates(const Instruction& consumer, const std::string& consumer_kind,
                                           Viewpoint consumer_at,
                                           const std::vector<Dependency>& deps, const std::vector<ReadStep>& steps,
                                           Cycles at_head) {
  std::vector<Cycles> gates(std::max<std::size_t>(1, steps.size()), 0);
  Cycles earliest_load = 0;
  bool reads_a_load = false;
  for (const Dependency& dep : deps) {
    auto it = published_.find(dep.producer);
    if (it == published_.end()) {
      scheduling_.dependency_wait(dep.mode, kFinished, consumer_kind, 0);
      continue;
    }
    Progress& p = it->second;
    bool shares_bytes = false;
    std::uint64_t whole_need = 0;
    for (const ReadStep& s : steps)
      for (const ReadRange& r : s.reads)
        if (overlaps(r, consumer_at, p)) {
          shares_bytes = true;
          whole_need = std::max(whole_need, p.output.bytes_before(r.end));
        }
    for (std::size_t i = 0; i < gates.size(); ++i) {
      Cycles g = p.done;
      if (dep.mode == DependencyMode::TwoPhase) {
        g = std::max(p.release, p.time_written(whole_need));
      } else if (dep.mode == DependencyMode::Staged) {
        g = p.release;
        if (shares_bytes) {
          std::uint64_t need = 0;
          if (i < steps.size())
            for (const ReadRange& r : steps[i].reads)
              if (overlaps(r, consumer_at, p)) need = std::max(need, staged_need(r, p, dep.granularity));
          g = p.time_written(need);
        }
      }
      gates[i] = std::max(gates[i], g);
    }
    const Cycles ready = gates.front();
    scheduling_.dependency_wait(dep.mode, p.kind, consumer_kind,
                                ready > at_head ? ready - at_head : 0);
    if (dep.mode != DependencyMode::Full) announce_flags(p, dep);
    if (p.kind == "load" && shares_bytes) {
      earliest_load = reads_a_load ? std::min(earliest_load, p.start) : p.start;
      reads_a_load = true;
    }
  }
  // Steps run in order, so a later step is never released before an earlier one.
  for (std::size_t i = 1; i < gates.size(); ++i) gates[i] = std::max(gates[i], gates[i - 1]);
  if (reads_a_load && (consumer_kind == "vector" || consumer_kind == "matrix")) {
    const std::string layer = consumer.params.contains("layer") && consumer.params["layer"].is_string()
                                  ? consumer.params["layer"].get<std::string>()
                                  : "";
    const Cycles start = std::max(gates.front(), at_head);
    scheduling_.first_compute(layer, start - std::min(start, earliest_load));
  }
  return gates;
}

}  // namespace npusim
