// The attributes and constant inputs of every op the importer takes, checked before the onnx
// library's shape inference reads them (OnnxNodeChecks.h). libonnx 1.12 indexes dimensions
// by them without a bound check in several ops: a Transpose perm outside the rank, a Reshape
// shape with an extent below -1 or a 0 past the input's rank, a Concat axis outside it, an
// empty constant where an index is read made it read out of bounds (issue 42: segfaults).
#include "apps/frontend/onnx/OnnxNodeChecks.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/frontend/onnx/OnnxAttributes.h"
#include "apps/frontend/onnx/OnnxShapeFolding.h"
#include "apps/frontend/onnx/OnnxTensor.h"

namespace npusim {

namespace {

using Node = onnx::NodeProto;
using Ints = std::vector<std::int64_t>;

// An axis `a` of a rank-`r` value: -r .. r - 1 (`extra` more at the top: Flatten's axis may be r).
void check_axis(const OnnxModel& m, const Node& n, const std::string& what, std::int64_t a, int r, int extra = 0) {
  if (a < -r || a >= r + extra)
    m.fail(n, fmt::format("{} is {}; for its rank-{} input it must be from {} to {}", what, a, r, -r, r + extra - 1));
}

void check_axes(const OnnxModel& m, const Node& n, const std::string& what, const Ints& axes, int r) {
  std::set<std::int64_t> seen;
  for (const std::int64_t a : axes) {
    check_axis(m, n, what, a, r);
    if (!seen.insert(a < 0 ? a + r : a).second) m.fail(n, fmt::format("{} names axis {} twice", what, a));
  }
}

// The single-axis attributes, the ops they belong to, and how far past the rank they may go.
void check_axis_attributes(const OnnxModel& m, const Node& n, std::optional<int> rank) {
  static const std::map<std::string, int> axis_ops = {{"Concat", 0}, {"Softmax", 0}, {"LayerNormalization", 0},
                                                      {"Gather", 0}, {"Split", 0},   {"Flatten", 1}};
  const auto op = axis_ops.find(n.op_type());
  if (op == axis_ops.end() || !rank) return;
  if (const auto* a = onnx_attribute(n, "axis")) check_axis(m, n, "attribute 'axis'", a->i(), *rank, op->second);
  if (n.op_type() == "Concat" && !onnx_attribute(n, "axis")) m.fail(n, "a Concat needs its attribute 'axis'");
}

// A Transpose's perm: each axis of its input once.
void check_perm(const OnnxModel& m, const Node& n, std::optional<int> rank) {
  const auto* a = onnx_attribute(n, "perm");
  if (!a) return;
  const Ints perm(a->ints().begin(), a->ints().end());
  const std::size_t r = rank ? std::size_t(*rank) : perm.size();
  if (!is_permutation_of_rank(perm, r))
    m.fail(n, fmt::format("attribute 'perm' is [{}]; it must name each axis of its rank-{} input once (0 to {})",
                          fmt::join(perm, ", "), r, std::int64_t(r) - 1));
}

// A Reshape's target: extents from -1 up, one -1 at most, a 0 only where the input has an
// axis to copy (allowzero 0), and not both 0 and -1 when a 0 means an empty extent.
void check_reshape(const OnnxModel& m, const Node& n, std::optional<int> rank, const Ints& shape) {
  const bool allowzero = onnx_int(n, "allowzero", 0) != 0;
  const auto place = fmt::format("its shape [{}]", fmt::join(shape, ", "));
  if (std::count(shape.begin(), shape.end(), -1) > 1) m.fail(n, place + " has more than one -1");
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < -1) m.fail(n, fmt::format("{} has {}; extents are -1 (the rest), 0 (copied) or positive", place, shape[i]));
    if (shape[i] == 0 && !allowzero && rank && std::int64_t(i) >= *rank)
      m.fail(n, fmt::format("{} copies extent {} (a 0), which its rank-{} input does not have", place, i, *rank));
  }
  if (allowzero && std::count(shape.begin(), shape.end(), 0) && std::count(shape.begin(), shape.end(), -1))
    m.fail(n, place + " has a 0 (with allowzero, an empty extent) and a -1, which cannot be worked out");
}

// The constant input `i` as integers, when it is a constant.
std::optional<Ints> constant_ints(const OnnxModel& m, const Node& n, int i) {
  if (i >= n.input_size() || n.input(i).empty()) return std::nullopt;
  const onnx::TensorProto* t = m.constant(n.input(i));
  if (!t) return std::nullopt;
  if (t->dims_size() > 1) m.fail(n, fmt::format("input {} ('{}') must be a list (rank 1), not rank {}", i, n.input(i), t->dims_size()));
  return tensor_integers(*t, m.file);
}

// Axes given as an attribute (opset < 13) or as input 1 (Squeeze, Unsqueeze from 13).
std::optional<Ints> given_axes(const OnnxModel& m, const Node& n) {
  if (const auto* a = onnx_attribute(n, "axes")) return Ints(a->ints().begin(), a->ints().end());
  if (n.op_type() == "Squeeze" || n.op_type() == "Unsqueeze") return constant_ints(m, n, 1);
  return std::nullopt;
}

void check_axes_lists(const OnnxModel& m, const Node& n, std::optional<int> rank) {
  const std::string& op = n.op_type();
  if (op != "Squeeze" && op != "Unsqueeze" && op != "ReduceMean") return;
  const auto axes = given_axes(m, n);
  if (!axes || !rank) return;
  // Unsqueeze's axes index its output, whose rank is the input's plus their number.
  const int r = op == "Unsqueeze" ? *rank + int(axes->size()) : *rank;
  check_axes(m, n, "'axes'", *axes, r);
}

// Slice's starts, ends, axes and steps: lists of one length, axes inside the rank, no 0 step.
void check_slice(const OnnxModel& m, const Node& n, std::optional<int> rank) {
  std::vector<std::optional<Ints>> lists;
  for (int i = 1; i < std::min(n.input_size(), 5); ++i) lists.push_back(constant_ints(m, n, i));
  std::optional<std::size_t> length;
  for (const auto& l : lists)
    if (l) {
      if (length && l->size() != *length) m.fail(n, "its starts, ends, axes and steps are lists of different lengths");
      length = l->size();
    }
  if (lists.size() >= 3 && lists[2] && rank) check_axes(m, n, "'axes'", *lists[2], *rank);
  if (lists.size() >= 4 && lists[3] && std::count(lists[3]->begin(), lists[3]->end(), 0)) m.fail(n, "a step is 0");
}

// The int64 constant input `i`, as it is (an empty list too); none for other types.
std::optional<Ints> constant_ints_or_empty(const OnnxModel& m, const Node& n, int i) {
  if (i >= n.input_size() || n.input(i).empty() || !m.constant(n.input(i))) return std::nullopt;
  const onnx::TensorProto* t = m.constant(n.input(i));
  if (t->data_type() != onnx::TensorProto::INT64) return std::nullopt;  // Resize's float scales: the library checks
  return tensor_integers(*t, m.file);
}

// An empty constant where the library reads an element (a Reshape's shape, a Slice's
// starts, a Gather's indices, an operand of arithmetic): only Resize takes empty ones (roi,
// scales or sizes left out).
void check_empty_constants(const OnnxModel& m, const Node& n) {
  if (n.op_type() == "Resize") return;
  for (int i = 0; i < n.input_size(); ++i) {
    const onnx::TensorProto* t = n.input(i).empty() ? nullptr : m.constant(n.input(i));
    if (!t) continue;
    const bool empty = std::any_of(t->dims().begin(), t->dims().end(), [](std::int64_t d) { return d == 0; });
    if (empty) m.fail(n, fmt::format("input {} ('{}') is an empty constant; the op needs its values", i, n.input(i)));
  }
}

// Lists whose length the rank fixes: Pad's pads (2 per axis), Resize's scales or sizes (1 per axis).
void check_rank_lists(const OnnxModel& m, const Node& n, std::optional<int> rank) {
  if (!rank) return;
  const auto expect = [&](int input, std::size_t per_axis, const char* what) {
    const auto list = constant_ints_or_empty(m, n, input);
    if (list && !list->empty() && list->size() != per_axis * std::size_t(*rank))
      m.fail(n, fmt::format("its {} hold {} values; its rank-{} input takes {}", what, list->size(), *rank,
                            per_axis * std::size_t(*rank)));
  };
  if (n.op_type() == "Pad" && !onnx_attribute(n, "pads")) expect(1, 2, "pads");
  if (n.op_type() == "Resize") expect(3, 1, "sizes");
}

}  // namespace

void check_node_arguments(const OnnxModel& m, const onnx::NodeProto& n, std::optional<int> rank) {
  check_empty_constants(m, n);
  check_axis_attributes(m, n, rank);
  check_axes_lists(m, n, rank);
  if (n.op_type() == "Transpose") check_perm(m, n, rank);
  if (n.op_type() == "Reshape")
    if (const auto shape = constant_ints(m, n, 1)) check_reshape(m, n, rank, *shape);
  if (n.op_type() == "Slice") check_slice(m, n, rank);
  check_rank_lists(m, n, rank);
}

}  // namespace npusim
