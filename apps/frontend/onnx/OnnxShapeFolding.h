#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "apps/frontend/onnx/OnnxModel.h"

namespace npusim {

// A constant being computed at import: element type, dims and values.
struct Folded {
  int type = onnx::TensorProto::INT64;
  std::vector<std::int64_t> dims;
  std::vector<double> values;
};

// The ops exporters write around masks, windows and class tokens on values known at
// import (Swin's shifted-window arithmetic and mask, ViT's expanded class token): Mod,
// Equal, Less, Greater, Not, Where, ConstantOfShape, Expand, Range, ScatterND. Empty when `n` is none of them or
// its inputs broadcast in a way this does not evaluate (then it stays a node).
std::optional<Folded> fold_shape_op(const onnx::NodeProto& n, const std::vector<Folded>& in, const OnnxModel& m);
const std::vector<std::string>& shape_folding_ops();

// After folding: when some value's shape is still unknown (the onnx library's data
// propagation does not evaluate Where or Mod, so a Reshape to a target they compute has
// no inferred shape), the folded integer nodes become Constant nodes and shapes are
// inferred again. Nothing is done when every shape is known.
void infer_folded_shapes(OnnxModel& m);

// Whether `perm` names each of 0 .. rank - 1 exactly once (a Transpose's perm).
bool is_permutation_of_rank(const std::vector<std::int64_t>& perm, std::size_t rank);

// The dims a Reshape of `from` to `target` gives (0 copies an extent, -1 takes the rest);
// empty when they do not fit.
std::optional<std::vector<std::int64_t>> reshape_target(const std::vector<std::int64_t>& from,
                                                        const std::vector<double>& target);

}  // namespace npusim
