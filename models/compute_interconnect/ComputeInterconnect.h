#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "models/min_network/BenesNetwork.h"
#include "sim/common/Cycles.h"
#include "sim/stats/StatRegistry.h"

namespace npusim {

// The compute interconnect 920 of seed001 Fig. 9 (§1.8): bidirectional buses 925 join
// the compute units, so a unit sends results straight to another unit. None is cluster
// 800 (independent units); a 2x2 switch joins unit i and unit i+1; a Benes network
// joins any unit to any.
enum class ComputeInterconnectKind { None, Switch2x2, Benes };

// Border partial sums one compute unit sends to another, and when they are ready.
struct BorderSend {
  std::uint32_t from_unit = 0, to_unit = 0;
  std::uint64_t bytes = 0;
  Cycles ready = 0;
};

class ComputeInterconnect : public sc_core::sc_module {
 public:
  // `units` ports; a pass costs `stage_cycles` per switch stage plus the largest send
  // of the pass at `link_bytes_per_cycle`. Throws std::invalid_argument on a port count
  // the kind cannot serve (the config check refuses it first, naming the key).
  ComputeInterconnect(sc_core::sc_module_name name, ComputeInterconnectKind kind, std::uint32_t units,
                      Cycles stage_cycles, double link_bytes_per_cycle, StatGroup& stats);

  // Why `kind` cannot serve `units` ports, or empty when it can.
  static std::string misfit(ComputeInterconnectKind kind, std::uint32_t units);
  // Delivers the sends in rounds (each unit sends one at a time, in the order they are
  // ready); returns each send's arrival cycle. A send to its own unit is already there.
  // `hand_off`: the blocks are a layer's outputs handed to the next layer's units (¶84),
  // counted apart from border partial sums.
  std::vector<Cycles> deliver(const std::vector<BorderSend>& sends, bool hand_off = false);
  std::uint32_t stages() const;

 private:
  // One round: the head send of each unit. Returns the passes it takes.
  std::uint64_t round_passes(const std::vector<std::int64_t>& request);
  std::uint64_t chain_passes(const std::vector<std::int64_t>& request);

  ComputeInterconnectKind kind_;
  std::uint32_t units_;
  Cycles stage_cycles_;
  double link_bytes_per_cycle_;
  std::unique_ptr<BenesNetwork> benes_;
  struct Counters {
    std::uint64_t* sends;
    std::uint64_t* bytes;
    std::uint64_t* handoff_sends;
    std::uint64_t* handoff_bytes;
    std::uint64_t* passes;
    std::uint64_t* conflicts;
    std::uint64_t* busy;
  } c_;
};

}  // namespace npusim
