#pragma once
#include <cstdint>
#include <vector>

#include "apps/compiler/emit/EmitContext.h"

namespace npusim {

// Vector-unit instructions other lowerings build too: the matrix lowering requantizes
// its int32 sums and adds model-ci partial sums with them.

// int32 sums -> int8 at NRAM `out_at`, with the layer's shift and ReLU.
// int32 sums -> int8 by the layer's shift and ReLU; with the layer's bias for output
// channels first_co.. (the sums' innermost dimension).
Instruction requant_op(std::uint32_t core, const TensorOperand& sums, std::uint64_t out_at, const Layer& l,
                       std::uint32_t first_co);
// The layer's requantization params: shift, relu and, when it has one, the bias of output
// channels [first_co, first_co + co).
nlohmann::json requant_params_of(const Layer& l, std::uint32_t first_co, std::uint32_t co);
// After a band's compute `compute` into `slot`: its int32 sums requantized (with the
// layer's ReLU) when it `accumulates`, or an add's ReLU in place, then the band stored.
void finish_band(EmitContext& ctx, std::uint32_t core, std::uint64_t compute, const BandSlot& slot, bool accumulates,
                 const std::vector<std::uint64_t>& out_shape, std::uint64_t tile, std::uint32_t first_co,
                 std::uint32_t co);
// The same for output rows `out` (part of a band: row-stationary's psum rows).
void finish_rows(EmitContext& ctx, std::uint32_t core, std::uint64_t compute, const BandSlot& slot, bool accumulates,
                 const std::vector<std::uint64_t>& out_shape, const OutputRows& out, std::uint32_t first_co,
                 std::uint32_t co);

}  // namespace npusim
