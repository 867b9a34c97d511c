// Embedding (a Gather of a table in DRAM): the load DMA fetches each token's row of the
// table into the band's output region and the store DMA writes the band; no engine
// computes. The token ids are compile-time data, so every row's address is known.
#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_dma/ConcatLowering.h"

namespace npusim {

void emit_embedding_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) {
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  CoreState& cs = ctx.core(core);
  const auto band = c.tiling.band_tile(l, tile);
  const BandSlot slot = ctx.next_slot(cs, c.inputs.size());
  const std::uint64_t row_bytes = l.out.c, positions = std::uint64_t(band.rows) * l.out.w;
  const std::uint64_t first = (std::uint64_t(band.image) * l.out.h + band.row0) * l.out.w;
  BandWriters loads;
  for (std::uint64_t p = 0; p < positions; ++p) {
    Instruction load = make_op("load", core);
    const std::uint64_t id = (*l.token_ids)[first + p];
    load.inputs = {tensor(AddressSpace::Dram, ctx.weights_at(core) + id * row_bytes, nhwc(1, 1, 1, row_bytes),
                          DType::Int8)};
    load.outputs = {tensor(AddressSpace::Nram, slot.out_at + p * row_bytes, nhwc(1, 1, 1, row_bytes), DType::Int8)};
    depend(load, cs.out_reader[slot.index]);  // the slot's last band has been stored
    if (!cs.loaded_ifmap) depend(load, cs.last_store);  // the core's NRAM is free
    loads.emplace_back(ctx.push(std::move(load)), DependencyMode::Full);
  }
  cs.loaded_ifmap = true;
  ctx.emit_band_store(core, loads, slot.out_at, slot.index, tile, 0, l.out.c);
}

}  // namespace npusim
