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

}  // namespace

// Only the memory side (DRAM or cluster cache) may be pitched, a window of a wider
// tensor, or name another cluster's cache.
std::vector<OpSpec> load_ops() {
  return {{"load", "load", {{"source", {kDram, kCluster}, true, true}}, {{"destination", {kNram, kWram}}}, {}, same_bytes}};
}

std::vector<OpSpec> store_ops() {
  return {{"store", "store", {{"source", {kNram}}}, {{"destination", {kDram, kCluster}, true, true}}, {}, same_bytes}};
}

}  // namespace npusim
