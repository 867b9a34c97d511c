#pragma once
#include "apps/compiler/emit/Lowering.h"

namespace npusim {

// Concat and embedding: data movement only, by the load and store DMAs.
class ConcatLowering : public Lowering {
 public:
  ConcatLowering() : Lowering("dma", 50) {}

  // Placement and tiling (ConcatPlan.cpp).
  std::vector<std::string> takes(const Layer& l) const override;
  void plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const override;

  // Emission: per input, its band rows into a region of the slot, then stored into the input's
  // channels of the output (ConcatTiles.cpp).
  void emit_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile) const override;
};

// Embedding: per band, one load of each token's row of the table into the slot's output
// region, then the band's store (EmbeddingTiles.cpp).
void emit_embedding_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile);
// concat_tokens: per band, the constant's rows from DRAM and the input's positions that
// follow them, loaded side by side into the slot, then the band's store (TokenConcatTiles.cpp).
void emit_token_concat_tile(EmitContext& ctx, std::uint32_t core, std::uint64_t tile);

}  // namespace npusim
