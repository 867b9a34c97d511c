#include "apps/compiler/Workload.h"

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
  }
  return "?";
}

std::uint64_t Layer::weight_elements() const {
  if (kind == LayerKind::Depthwise) return std::uint64_t(kh) * kw * in.c;
  if (kind == LayerKind::Conv || kind == LayerKind::Fc) return std::uint64_t(out.c) * kh * kw * in.c;
  return 0;
}

std::uint64_t Layer::macs() const {
  const std::uint64_t positions = std::uint64_t(out.h) * out.w;
  if (kind == LayerKind::Depthwise) return positions * out.c * kh * kw;
  if (kind == LayerKind::Conv || kind == LayerKind::Fc) return positions * out.c * kh * kw * in.c;
  return 0;
}

std::uint32_t default_requant_shift(std::uint64_t terms) {
  std::uint32_t log2_terms = 0;
  while ((std::uint64_t(1) << log2_terms) < terms) ++log2_terms;
  return 7 + (log2_terms + 1) / 2;
}

}  // namespace npusim
