#pragma once
#include <string>
#include <vector>

#include "apps/frontend/onnx/OnnxModel.h"

namespace npusim {

// The ops evaluated at import time when every input is known: the shape arithmetic
// exporters emit around a Reshape (Shape, Gather, Slice, Concat, Unsqueeze, ...) and
// scalar math on constants (the Pow that gives attention's sqrt(d)).
const std::vector<std::string>& foldable_onnx_ops();

// Evaluates, in graph order, each node of those ops whose inputs are constants (or, for
// Shape, a value with an inferred shape); its outputs become constants of `m`. So the
// importer meets a Reshape's target or a Div's divisor as numbers, not as nodes.
void fold_constants(OnnxModel& m);

}  // namespace npusim
