#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/compiler/TraceEmitter.h"
#include "apps/tags/ConstantPacket.h"

namespace npusim {

// The constant packets of a compiled workload (seed002 §3.10), one per core: in the
// constant segment the weights each core loads (every co block in data mode; its piece
// of the split index in a model mode, split_constant), in the address segment the input
// and output address of every layer it runs (8 bytes each), in the hidden segment the
// size of every hidden-layer tensor. npusim streams instructions from its controller,
// so no instruction segment is laid out (the worked example of Fig. 3 is a test).
std::vector<ConstantPacket> constant_packets(const TraceEmitter& emitter, std::uint32_t cores);
nlohmann::json packets_json(const std::vector<ConstantPacket>& packets);

}  // namespace npusim
