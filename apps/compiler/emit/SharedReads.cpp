// Weight blocks the cores of a data-parallel layer share (seed002 §3.9: in data-parallel
// mode the weights are what the cores exchange). Every core needs every block; the first
// core to emit a block reads it from DRAM, the others take a copy the routing fabric
// replicates from that read (load params.multicast): "cluster" for the first core of
// another cluster (the bytes cross the links into that cluster), "core" for the rest
// (they fan out behind their cluster's routing node). A copy starts once the read has
// left DRAM (two-phase). Without /chip/interconnect/multicast every core reads its own.
// A model-co layer's cores all read every band of its input, and the cores of one
// cluster read the same band at the same step (hybrid-co: those of its run): the first
// of them reads it, the others take "core" copies.
#include <fmt/format.h>

#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/emit/TraceOperands.h"

namespace npusim {

bool EmitContext::shares_weights(const CompiledLayer& c) const {
  const LayerTiling& t = c.tiling;
  return hw_.chip.interconnect.multicast && t.split == ParallelMode::Data && t.cores.size() > 1 &&
         c.layer.kind != LayerKind::Matmul && !lowering(t.engine).whole_tensors();
}

std::string EmitContext::weight_sharing(const CompiledLayer& c) const {
  if (c.tiling.split != ParallelMode::Data || !c.layer.has_weights()) return "each core reads only its own weights";
  if (shares_weights(c))
    return "one DRAM read per weight block, replicated by the routing fabric to every core (params.multicast)";
  if (!hw_.chip.interconnect.multicast)
    return fmt::format("every core reads every weight block from DRAM ({} reads): /chip/interconnect/multicast is "
                       "false",
                       c.tiling.cores.size());
  return "every core reads every weight block from DRAM (this lowering moves whole tensors)";
}

std::uint32_t EmitContext::weight_lead(std::uint32_t core) {
  if (shared_.layer != layer_ || shared_.block != block_) {
    shared_ = SharedBlock{};
    shared_.layer = layer_;
    shared_.block = block_;
    shared_.lead = core;
    shared_.reached.assign(hw_.chip.clusters, false);
  }
  return shared_.lead;
}

void EmitContext::share_weight_piece(Instruction& load, std::size_t k) const {
  if (load.core == shared_.lead) return;
  const bool in_cluster = shared_.reached.at(load.core / hw_.chip.cores_per_cluster);
  load.params["multicast"] = in_cluster ? "core" : "cluster";
  depend(load, shared_.reads.at(k), DependencyMode::TwoPhase);
}

void EmitContext::shared_piece_pushed(std::uint32_t core, std::uint64_t id) {
  if (core == shared_.lead) shared_.reads.push_back(std::int64_t(id));
  shared_.reached.at(core / hw_.chip.cores_per_cluster) = true;
}

bool EmitContext::shares_bands() const {
  return hw_.chip.interconnect.multicast && splits_co(layer().tiling.split) &&
         hw_.chip.cores_per_cluster > 1;
}

EmitContext::SharedBand& EmitContext::shared_band(std::uint32_t core, const std::vector<WindowPiece>& pieces) {
  if (shared_bands_layer_ != layer_) {
    shared_bands_.clear();
    shared_bands_layer_ = layer_;
  }
  const auto key = std::make_tuple(core / hw_.chip.cores_per_cluster, block_, pieces.front().address, pieces.size());
  const auto [it, first] = shared_bands_.try_emplace(key);
  if (first) it->second.lead = core;
  return it->second;
}

}  // namespace npusim
