#include "models/sparse_cluster/DepthwiseSeparable.h"

#include <algorithm>

#include "models/compute_interconnect/BorderExchange.h"

namespace npusim {

PlanOutputs plan_outputs(const SparseClusterConfig& cfg, const SparseConvPlan& plan) {
  const ConvShape& g = plan.shape();
  const auto& own = plan.partition().regions;
  BorderExchange border(g, own, plan.compute_regions(), true);
  const std::uint32_t per_unit = (plan.submaps() + cfg.units - 1) / cfg.units;
  std::vector<Cycles> busy(cfg.units, 0);
  PlanOutputs out;
  for (std::uint32_t s = 0; s < plan.submaps(); ++s) {
    const UnitRegion& r = plan.compute_regions()[s];
    std::vector<std::int64_t> sums(std::size_t(r.oy1 - r.oy0) * (r.ox1 - r.ox0) * g.co);
    const SubmapStats st = convolve_submap(cfg.unit_shape(), plan.work(s, &sums));
    out.loaded += plan.cells(s).nonzeros();
    out.products += st.multipliers.products;
    busy[s / per_unit] += cfg.unit_timing().busy(st);
    border.computed(s, s / per_unit, 0, sums);
  }
  out.busiest = *std::max_element(busy.begin(), busy.end());
  out.sums.assign(std::size_t(g.ho()) * g.wo() * g.co, 0);
  for (std::uint32_t s = 0; s < plan.submaps(); ++s) {
    const UnitRegion& o = own[s];
    const std::vector<std::int64_t> sums = border.own_sums(s);
    const std::size_t row = std::size_t(o.ox1 - o.ox0) * g.co;
    for (std::uint32_t oy = o.oy0; oy < o.oy1; ++oy)
      std::copy_n(&sums[(oy - o.oy0) * row], row, &out.sums[(std::size_t(oy) * g.wo() + o.ox0) * g.co]);
  }
  return out;
}

namespace {

// One channel of an NHWC compressed map, as a map of its own.
CompressedMap channel_of(const CompressedMap& m, std::uint32_t ch) {
  CompressedMap one{m.h, m.w, 1, {}, {}};
  for (std::size_t i = 0; i < m.indices.size(); ++i)
    if (m.indices[i] % m.c == ch) {
      one.values.push_back(m.values[i]);
      one.indices.push_back(m.indices[i] / m.c);
    }
  return one;
}

// The intermediates interleaved into one [ho][wo][channels] map, compressed (int32 values:
// they have not been requantized).
CompressedMap interleave(const std::vector<std::vector<std::int64_t>>& maps, std::uint32_t h, std::uint32_t w) {
  const auto c = std::uint32_t(maps.size());
  CompressedMap m{h, w, c, {}, {}};
  for (std::uint32_t p = 0; p < h * w; ++p)
    for (std::uint32_t ch = 0; ch < c; ++ch)
      if (maps[ch][p] != 0) {
        m.values.push_back(std::int32_t(maps[ch][p]));
        m.indices.push_back(p * c + ch);
      }
  return m;
}

// Steps 1-2: each channel convolved alone.
void depthwise_step(const SparseClusterConfig& cfg, const ConvShape& dw, const CompressedMap& ifm,
                    const std::vector<std::int8_t>& kernel, DepthwiseSeparableSteps& steps) {
  ConvShape one = dw;
  one.ci = one.co = 1;
  const std::size_t taps = std::size_t(dw.kh) * dw.kw;
  for (std::uint32_t ch = 0; ch < dw.ci; ++ch) {
    const CompressedMap w = compress_map(&kernel[ch * taps], 1, std::uint32_t(taps), 1);
    const PlanOutputs out = plan_outputs(cfg, SparseConvPlan(cfg, one, channel_of(ifm, ch), w));
    steps.depthwise_cycles += out.busiest;
    steps.products += out.products;
    steps.intermediate_nonzeros += std::count_if(out.sums.begin(), out.sums.end(), [](auto v) { return v != 0; });
    steps.intermediate_bytes += 4 * out.sums.size();
    steps.intermediates.push_back(out.sums);
  }
}

}  // namespace

DepthwiseSeparableSteps depthwise_separable(const SparseClusterConfig& cfg, const ConvShape& dw,
                                            const CompressedMap& ifm, const std::vector<std::int8_t>& dw_kernel,
                                            const std::vector<std::int8_t>& pw_kernel, std::uint32_t co) {
  DepthwiseSeparableSteps steps;
  depthwise_step(cfg, dw, ifm, dw_kernel, steps);
  // Step 3: the 1x1 combine over the intermediates.
  ConvShape pw;
  pw.hi = dw.ho();
  pw.wi = dw.wo();
  pw.ci = dw.ci;
  pw.co = co;
  pw.kh = pw.kw = 1;
  const CompressedMap w = compress_map(pw_kernel.data(), co, 1, dw.ci);
  const PlanOutputs out = plan_outputs(cfg, SparseConvPlan(cfg, pw, interleave(steps.intermediates, pw.hi, pw.wi), w));
  steps.pointwise_cycles = out.busiest;
  steps.products += out.products;
  steps.pointwise = out.sums;
  // Step 4: ReLU.
  steps.output = out.sums;
  for (auto& v : steps.output) v = std::max<std::int64_t>(v, 0);
  return steps;
}

}  // namespace npusim
