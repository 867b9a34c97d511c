// concat_tokens (a ViT's class token before its patch tokens): the load DMA brings the
// band's rows of the constant from DRAM and the input positions that follow them, side
// by side into the band's output rows, and the store DMA writes the band; no engine
// computes. The input's h x w positions are rows of one position each, in storage order.
#include <algorithm>

#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_dma/ConcatLowering.h"

namespace npusim {

namespace {

// Output rows [first, end) of the constant: one load of contiguous rows.
void load_constant_rows(EmitContext& ctx, std::uint32_t core, const BandSlot& slot, std::uint32_t first,
                        std::uint32_t end, std::uint32_t row0, BandWriters& loads) {
  const Layer& l = ctx.layer().layer;
  CoreState& cs = ctx.core(core);
  const std::uint64_t row_bytes = l.out.c, bytes = std::uint64_t(end - first) * row_bytes;
  Instruction load = make_op("load", core);
  load.inputs = {tensor(AddressSpace::Dram, ctx.weights_at(core) + first * row_bytes, nhwc(1, 1, 1, bytes),
                        DType::Int8)};
  load.outputs = {tensor(AddressSpace::Nram, slot.out_at + (first - row0) * row_bytes, nhwc(1, 1, 1, bytes),
                         DType::Int8)};
  depend(load, cs.out_reader[slot.index]);  // the slot's last band has been stored
  if (!cs.loaded_ifmap) depend(load, cs.last_store);  // the core's NRAM is free
  loads.emplace_back(ctx.push(std::move(load)), DependencyMode::Full);
}

}  // namespace

void emit_token_concat_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) {
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  CoreState& cs = ctx.core(core);
  const auto band = c.tiling.band_tile(l, tile);
  const BandSlot slot = ctx.next_slot(cs, 0);
  const std::uint32_t tokens = l.vocab, end = band.row0 + band.rows, split = std::clamp(tokens, band.row0, end);
  BandWriters loads;
  if (band.row0 < split) load_constant_rows(ctx, core, slot, band.row0, split, band.row0, loads);
  if (split < end) {
    const std::uint64_t first = std::uint64_t(band.image) * l.in.h * l.in.w + (split - tokens), rows = end - split;
    ctx.emit_band_loads(core, ctx.window_pieces(core, c.inputs[0], first, rows, 1, l.in.c, 0, l.in.c),
                        slot.out_at + std::uint64_t(split - band.row0) * l.out.c, cs.out_reader[slot.index], false,
                        {0, first * l.in.c, (first + rows) * l.in.c}, loads);
  }
  cs.loaded_ifmap = true;
  ctx.emit_band_store(core, loads, slot.out_at, slot.index, tile, 0, l.out.c);
}

}  // namespace npusim
