// Weights into WRAM for the matrix unit: conv and fc weight blocks, and a matmul's blocks of B.
#include <algorithm>

#include "apps/compiler/emit/TraceOperands.h"
#include "apps/compiler/lower_matrix/MatrixState.h"

namespace npusim {
namespace {

// The WRAM region the next weight block goes to, and what must have read it first.
TensorOperand next_wram_block(EmitContext& ctx, MatrixCore& mc, std::vector<std::int64_t>& readers) {
  const LayerTiling& t = ctx.layer().tiling;
  const std::uint64_t half = t.kind(ctx.hw()).wram.capacity_bytes / 2;
  mc.block_half = t.weights_in_half ? mc.wram_half : 2;
  if (t.weights_in_half) mc.wram_half ^= 1;
  for (std::uint32_t h = 0; h < 2; ++h)
    if (mc.block_half == 2 || mc.block_half == h) readers.push_back(mc.wram_reader[h]);
  return tensor(AddressSpace::Wram, mc.block_half == 1 ? half : 0, {}, DType::Int8);
}

}  // namespace

void emit_conv_weights(EmitContext& ctx, MatrixCore& mc, std::uint32_t core) {
  const CompiledLayer& c = ctx.layer();
  const CoreState& cs = ctx.core(core);
  std::vector<std::int64_t> readers;
  const TensorOperand to = next_wram_block(ctx, mc, readers);
  const bool grouped = c.layer.groups > 1;  // every output reads its group's ci inputs, all stored
  mc.weight_loads = ctx.emit_weights(core, to, readers, c.tiling.core_block(c.layer, cs.share, ctx.block()),
                   grouped ? std::pair{0u, c.tiling.ci} : c.tiling.core_channels_in(c.layer, cs.share), mc.weights);
}

// B's rows [r0, r1) (cache rows first), channels [c0, c0 + cn) of each, packed into WRAM:
// [n, k] when transposed (a block of keys), [k, n] otherwise (a block of value columns,
// which the conv reads as transposed weights); each part loaded from where its
// producer stored it (or from the KV cache, in DRAM before the run).
void emit_matmul_weights(EmitContext& ctx, MatrixCore& mc, std::uint32_t core, std::uint64_t tile) {
  const CompiledLayer& c = ctx.layer();
  const Layer& l = c.layer;
  const LayerTiling& t = c.tiling;
  const MatmulShape s = l.matmul();
  const auto block = t.matmul_block(l, tile);
  const std::uint32_t image = t.band_tile(l, tile).image;
  const std::uint32_t r0 = l.transpose_b ? block.first : 0, r1 = l.transpose_b ? block.first + block.count : s.k;
  const std::uint32_t c0 = l.transpose_b ? block.head * s.k : block.head * s.n + block.first;
  const std::uint32_t cn = l.transpose_b ? s.k : block.count;
  std::vector<std::int64_t> readers;
  const TensorOperand to = next_wram_block(ctx, mc, readers);
  mc.weight_loads = 0;  // B's loads are never staged by channels
  std::uint64_t packed = 0;  // bytes of the block loaded so far
  // `produced`: rows of the producer's tensor (else of the KV cache).
  auto load_rows = [&](const DramTensor& from, std::uint64_t row, std::uint32_t rows, bool produced) {
    for (const WindowPiece& piece : ctx.window_pieces(core, from, row, rows, 1, l.in_b.c, c0, cn)) {
      Instruction load = make_op("load", core);
      load.inputs = {memory_operand(piece)};
      load.outputs = {to};
      load.outputs[0].offset += packed + piece.offset;
      load.outputs[0].shape = piece.shape;
      for (std::int64_t id : readers) depend(load, id);
      ctx.wait_for_producers(load);
      if (produced) ctx.wait_for_writers(load, {1, row * l.in_b.c, (row + rows) * l.in_b.c});
      mc.weights = std::int64_t(ctx.push(std::move(load)));
      if (produced) ctx.record_read(std::uint64_t(mc.weights), 1);
    }
    packed += std::uint64_t(rows) * cn;
  };
  if (r0 < s.cached_rows)
    load_rows(c.kv_cache, std::uint64_t(image) * s.cached_rows + r0, std::min(r1, s.cached_rows) - r0, false);
  if (r1 > s.cached_rows) {
    const std::uint32_t from = std::max(r0, s.cached_rows) - s.cached_rows;
    load_rows(c.inputs[1], std::uint64_t(image) * s.b_rows + from, r1 - s.cached_rows - from, true);
  }
  mc.b_run = std::int64_t(tile / t.bands);
}

}  // namespace npusim
