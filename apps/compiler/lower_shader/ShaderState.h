#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "apps/compiler/emit/EmitContext.h"

namespace npusim {

// A shader core's emission state: per register group, the last readers of its image,
// weight and result regions, the weight fetch it holds and that block's first filter;
// and the return of the last tile, held back until the next tile's fetch is queued
// (fetch_ml runs in order, so an earlier return would hold that fetch behind its multiply).
struct ShaderCore {
  struct RegisterGroup {
    std::int64_t ifm_reader = kNone, weight_reader = kNone, result_reader = kNone, weights = kNone;
    std::int64_t filter_block = -1;
    bool fresh = true;  // no tile of this layer yet: the layout may differ from the last layer's
  };
  std::array<RegisterGroup, 2> groups;
  std::optional<Instruction> held_return;
  std::uint32_t held_group = 0;
  std::pair<std::uint64_t, std::uint64_t> held_bytes;  // the output bytes it writes
};

class ShaderState : public LoweringState {
 public:
  explicit ShaderState(std::uint32_t cores) : cores(cores) {}
  std::vector<ShaderCore> cores;
};

// Initialization phase (seed003 ¶[0046]): one ml_set per control register.
void emit_shader_setup(EmitContext& ctx, std::uint32_t core);
// One register-group tile of the current layer.
void emit_shader_tile(EmitContext& ctx, ShaderState& state, std::uint32_t core, std::uint64_t index);

}  // namespace npusim
