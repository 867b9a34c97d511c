// Concat and gather_channels: pure data movement by the load and store DMAs.
#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/lower_dma/ConcatLowering.h"
#include "apps/compiler/tiling/LayerTiler.h"

namespace npusim {

// All of the band's loads first, so that none waits behind a store. Each move's stores
// start once the one before has read its NRAM bytes (two-phase), so the band's last
// store finishing frees the whole slot (the next loads into it wait for that one).
void ConcatLowering::emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const {
  if (ctx.layer().layer.kind == LayerKind::Embedding) return emit_embedding_tile(ctx, core, tile);
  if (ctx.layer().layer.kind == LayerKind::ConcatTokens) return emit_token_concat_tile(ctx, core, tile);
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  CoreState& cs = ctx.core(core);
  const auto band = t.band_tile(l, tile);
  const std::vector<ChannelMove> moves = channel_moves(l);
  const BandSlot slot = ctx.next_slot(cs, c.inputs.size());
  const std::uint64_t row = std::uint64_t(band.image) * l.in.h + band.row0;
  std::vector<BandWriters> loads(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const ChannelMove& m = moves[i];
    const std::uint64_t row_bytes = std::uint64_t(l.in.w) * m.in_c;
    ctx.emit_band_loads(core, ctx.window_pieces(core, c.inputs[m.input], row, band.rows, l.in.w, m.in_c, m.from, m.count),
                        slot.base + concat_region_offset(l, t.rows, i), cs.in_reader[slot.index], true,
                        {m.input, row * row_bytes, (row + band.rows) * row_bytes}, loads[i]);
  }
  cs.loaded_ifmap = true;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i > 0) loads[i].emplace_back(std::uint64_t(cs.last_store), DependencyMode::TwoPhase);
    ctx.emit_band_store(core, loads[i], slot.base + concat_region_offset(l, t.rows, i), slot.index, tile, moves[i].to,
                        moves[i].count);
  }
  cs.in_reader[slot.index] = cs.last_store;
}

}  // namespace npusim
