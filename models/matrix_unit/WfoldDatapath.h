#pragma once
#include <cstdint>

#include "models/matrix_unit/ConvShape.h"
#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

// Functional Wfold convolution: computes real outputs by running the plan's loop nest over
// real data rows, extended weight rows and first/second/third buffers (seed000 §3.6, §4).
// Plain C++ so that a SystemC engine can call it.
//
// Layouts: ifmap [n hi wi ci] unpadded (padding and the stride-sw transform are applied
// while the master forms data rows); weights [co kh kw ci]; out [n ho wo co], every
// element written. `plan` must come from plan_wfold_conv(cfg, layer) for the same layer.
//
// int8 inputs accumulate in int32: exact, so the result equals any correct direct
// convolution bit for bit (barring int32 overflow, which the hardware shares).
void run_wfold_conv(const WfoldPlan& plan, const ConvShape& layer, const std::int8_t* ifmap,
                    const std::int8_t* weights, std::int32_t* out);

// float32 accumulates in float32 in the hardware's order (per CU: Pci lanes, then kw, bci,
// kh, kw pieces), which differs from a naive loop, so compare with a tolerance.
void run_wfold_conv(const WfoldPlan& plan, const ConvShape& layer, const float* ifmap,
                    const float* weights, float* out);

}  // namespace npusim
