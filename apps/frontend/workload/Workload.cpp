#include "apps/frontend/workload/Workload.h"

#include <cmath>

namespace npusim {

const char* layer_kind_name(LayerKind k) {
  switch (k) {
    case LayerKind::Conv: return "conv";
    case LayerKind::Depthwise: return "depthwise";
    case LayerKind::Fc: return "fc";
    case LayerKind::Pool: return "pool";
    case LayerKind::Add: return "add";
    case LayerKind::Relu: return "relu";
    case LayerKind::Matmul: return "matmul";
    case LayerKind::Softmax: return "softmax";
    case LayerKind::LayerNorm: return "layernorm";
    case LayerKind::Gelu: return "gelu";
    case LayerKind::Concat: return "concat";
    case LayerKind::Sigmoid: return "sigmoid";
    case LayerKind::HardSigmoid: return "hardsigmoid";
    case LayerKind::HardSwish: return "hardswish";
    case LayerKind::Silu: return "silu";
    case LayerKind::Tanh: return "tanh";
    case LayerKind::Mul: return "mul";
    case LayerKind::AddConstant: return "add_constant";
    case LayerKind::Mask: return "mask";
    case LayerKind::Embedding: return "embedding";
    case LayerKind::Upsample: return "upsample";
    case LayerKind::ConcatTokens: return "concat_tokens";
    case LayerKind::GatherChannels: return "gather_channels";
  }
  return "?";
}

std::uint64_t Layer::weight_elements() const {
  if (kind == LayerKind::Depthwise) return std::uint64_t(kh) * kw * in.c;
  if (kind == LayerKind::Conv || kind == LayerKind::Fc) return std::uint64_t(out.c) * kh * kw * (in.c / groups);
  if (has_table()) return std::uint64_t(vocab) * out.c;
  return has_constant() ? in.elements() : 0;
}

MatmulShape Layer::matmul() const {
  MatmulShape s;
  s.heads = heads;
  s.m = in.h * in.w;
  s.k = in.c / heads;
  s.b_rows = in_b.h * in_b.w;
  const std::uint32_t b_all_rows = kv_cache_tokens ? kv_cache_tokens : s.b_rows;
  s.cached_rows = b_all_rows - s.b_rows;
  s.n = transpose_b ? b_all_rows : in_b.c / heads;
  return s;
}

std::uint64_t Layer::b_elements() const {
  const MatmulShape s = matmul();
  return std::uint64_t(s.b_rows + s.cached_rows) * in_b.c;
}

std::uint64_t Layer::macs() const {
  const std::uint64_t positions = std::uint64_t(out.h) * out.w;
  if (kind == LayerKind::Matmul) {
    const MatmulShape s = matmul();
    return std::uint64_t(s.heads) * s.m * s.n * s.k;
  }
  if (kind == LayerKind::Depthwise) return positions * out.c * kh * kw;
  if (kind == LayerKind::Conv || kind == LayerKind::Fc) return positions * out.c * kh * kw * (in.c / groups);
  return 0;
}

std::uint32_t default_requant_shift(std::uint64_t terms) {
  std::uint32_t log2_terms = 0;
  while ((std::uint64_t(1) << log2_terms) < terms) ++log2_terms;
  return 7 + (log2_terms + 1) / 2;
}

}  // namespace npusim
