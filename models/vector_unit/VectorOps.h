#pragma once
#include <vector>

#include "sim/trace/OpCatalog.h"

namespace npusim {

constexpr auto kNram = AddressSpace::Nram;  // the vector unit's operands live in NRAM

// Trace ops of the vector unit: relu, add, requant, pool, dwconv (registered with the engine).
std::vector<OpSpec> vector_ops();
// Its activations (sigmoid, hardsigmoid, hardswish, silu, tanh) and mul (ActivationOps.cpp).
std::vector<OpSpec> activation_ops();
// Its upsampling, nearest or bilinear (UpsampleOps.cpp).
std::vector<OpSpec> upsample_ops();

}  // namespace npusim
