// The ops the DMAs run: load (DRAM or cluster cache into NRAM/WRAM) and store (back).
#include "models/dma/DmaOps.h"

#include <fmt/format.h>

#include "sim/trace/OpChecks.h"

namespace npusim {

namespace {

constexpr auto kDram = AddressSpace::Dram;
constexpr auto kNram = AddressSpace::Nram;
constexpr auto kWram = AddressSpace::Wram;
constexpr auto kCluster = AddressSpace::Cluster;

std::optional<OpProblem> same_bytes(const Instruction& ins) {
  const auto& from = ins.inputs[0];
  const auto& to = ins.outputs[0];
  if (from.bytes() == to.bytes()) return std::nullopt;
  return OpProblem{"outputs[0]", fmt::format("{} moves {} bytes from inputs[0] but outputs[0] holds {} bytes; "
                                             "they must be the same size",
                                             ins.op, from.bytes(), to.bytes())};
}

std::optional<OpProblem> multicast_problem(const Instruction& ins) {
  const auto it = ins.params.find("multicast");
  if (it == ins.params.end()) return std::nullopt;
  if (!it->is_string() || (*it != "cluster" && *it != "core"))
    return OpProblem{"params.multicast", "must be \"cluster\" or \"core\""};
  if (ins.inputs[0].space != kDram)
    return OpProblem{"params.multicast", "only a DRAM source can arrive by multicast"};
  if (ins.deps.empty())
    return OpProblem{"params.multicast", "a multicast copy must depend on the load that read its bytes"};
  return std::nullopt;
}

// The cluster cache is filled from DRAM only (a cluster fetching a block its cores share).
std::optional<OpProblem> load_problem(const Instruction& ins) {
  if (ins.outputs[0].space == kCluster && ins.inputs[0].space != kDram)
    return OpProblem{"outputs[0]", "a load fills the cluster cache from DRAM only"};
  if (auto problem = multicast_problem(ins)) return problem;
  return same_bytes(ins);
}

}  // namespace

Multicast multicast_of(const Instruction& inst) {
  const auto it = inst.params.find("multicast");
  if (it == inst.params.end()) return Multicast::None;
  return *it == "core" ? Multicast::Core : Multicast::Cluster;
}

// Only the memory side (DRAM or cluster cache) may be pitched, a window of a wider
// tensor, or name another cluster's cache.
std::vector<OpSpec> load_ops() {
  return {{"load", "load", {{"source", {kDram, kCluster}, true, true}}, {{"destination", {kNram, kWram, kCluster}}},
           {"multicast"}, load_problem}};
}

std::vector<OpSpec> store_ops() {
  return {{"store", "store", {{"source", {kNram}}}, {{"destination", {kDram, kCluster}, true, true}}, {}, same_bytes}};
}

}  // namespace npusim
