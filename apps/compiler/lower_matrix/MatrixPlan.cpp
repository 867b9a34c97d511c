// Placing and planning layers on the Wfold matrix unit (seed000).
#include "apps/compiler/lower_matrix/MatrixLowering.h"

#include "apps/compiler/tiling/LayerTiler.h"
#include "apps/compiler/tiling/LoadOrder.h"
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/vector_unit/VectorUnitConfig.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

// The band as the matrix unit computes it (positions_in_one_row).
ConvShape matrix_conv_shape(const Layer& l, const LayerTiling& t, const BandWindow& b, std::uint32_t co) {
  ConvShape s = band_conv_shape(l, t, b, co);
  if (positions_in_one_row(l)) {
    s.wi *= s.hi;
    s.hi = 1;
  }
  return s;
}

bool conv_or_fc(const Layer& l) { return l.kind == LayerKind::Conv || l.kind == LayerKind::Fc; }

}  // namespace

// Conv and fc (unless the layer names another engine) and matmul, whose B is loaded
// like weights by the load DMA; the vector unit requantizes.
std::vector<std::string> MatrixLowering::takes(const Layer& l) const {
  const bool wanted = l.kind == LayerKind::Matmul || (conv_or_fc(l) && (l.engine.empty() || l.engine == name()));
  if (!wanted) return {};
  return {"load", "store", name(), VectorUnitConfig::kSection};
}

void MatrixLowering::plan(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) const {
  const CoreConfig& core = t.kind(hw);
  const auto& unit = core.block<MatrixUnitConfig>(MatrixUnitConfig::kSection);
  choose_co_block(w, l, t, core);
  if (l.kind == LayerKind::Matmul) t.runs_per_image = l.heads * t.co_blocks;
  // Model-ci partial sums stay int32 until the reduction is done, then requantize.
  t.requantize_on_result_path = !splits_ci(t.split) && unit.result_requantize;
  tile_bands(w, l, hw, t);
  const LoadOrderPlan* order = load_order_plan(t);  // rs: each conv computes psum rows of its band
  const std::uint32_t conv_rows = order && order->psum_rows ? order->psum_rows : t.rows;
  try {
    t.engine_plans[name()] = plan_wfold_conv(unit, matrix_conv_shape(l, t, t.band(l, 0, conv_rows), t.co_block),
                                             t.requantize_on_result_path);
  } catch (const InputError& e) {
    throw InputError(w.file, layer_place(l), "the matrix unit cannot map it: " + e.reason());
  }
}

// Model-co and model-ci share a conv's or an fc's weights or input channels (seed002).
// Not a grouped conv: its blocks are cut along its groups (choose_co_block).
bool MatrixLowering::splits_channels(const Layer& l) const { return conv_or_fc(l) && l.groups == 1; }

// Conv and fc: the bands and weight blocks of one layer in any load order (LoadOrder.h).
bool MatrixLowering::orders_loads(const Layer& l) const { return conv_or_fc(l); }

std::optional<double> MatrixLowering::band_cycles(const LayerTiling& t) const {
  return double(band_plan(t).cycles.total);
}

// A data row holds Pci channels.
std::uint32_t MatrixLowering::tag_lanes(const LayerTiling& t) const { return band_plan(t).pci.bytes; }

}  // namespace npusim
