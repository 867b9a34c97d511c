#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "apps/compiler/tiling/LayerTiler.h"

namespace npusim {

// In which order the load engine brings a weighted layer's data in (seed004 §2.5.1, its
// reuse strategy), chosen per layer by the compiler (docs/load-orders.md):
//  ws - weight-stationary: a weight block stays in WRAM while every band of the input
//       streams past it; the input is read once per weight block (the compiler's order
//       before load orders existed);
//  fs - feature-map-stationary: a band of the input stays in NRAM while the weight blocks
//       stream past it, kernels block by block; the weights are read once per band;
//  rs - row-stationary (Eyeriss, ISCA 2016, mapped onto NRAM/WRAM; an assumption): as fs,
//       but the band is as tall as the input rows that fit half of NRAM, and the outputs
//       come out a few rows at a time (psum rows) from the other half, so the weights
//       are read once per much taller band.
enum class LoadOrder { WeightStationary, FeatureMapStationary, RowStationary };
const char* load_order_name(LoadOrder o);
std::optional<LoadOrder> parse_load_order(const std::string& name);
inline const std::vector<LoadOrder> kLoadOrders = {LoadOrder::WeightStationary, LoadOrder::FeatureMapStationary,
                                                   LoadOrder::RowStationary};

// seed004's start rule, "compute starts once the data of one complete compute unit is in",
// read two ways (the text leaves it open, §2.5.1):
//  round       - a hardware compute unit: the data every slave circuit needs for one
//                round, i.e. the kernels of that round's output channels and the input rows
//                under its window (the conv depends on its weight load staged by channels);
//  instruction - a work item: one conv instruction's whole band and weight block.
// Unset: the compiler's rule before load orders (input rows staged, weights whole).
enum class ComputeUnit { Round, Instruction };
std::optional<ComputeUnit> parse_compute_unit(const std::string& name);
const char* compute_unit_name(ComputeUnit u);

// `--load-order`: unset keeps ws and writes nothing about orders; auto simulates each.
struct LoadOrderOptions {
  std::optional<LoadOrder> forced;  // unset with `automatic` false: ws, unreported
  bool automatic = false;
  std::optional<ComputeUnit> unit;
  bool given() const { return forced || automatic || unit; }
};

// One candidate order of a layer: its cycles and DRAM bytes run alone on the chip.
struct LoadOrderCandidate {
  LoadOrder order = LoadOrder::WeightStationary;
  std::optional<std::uint64_t> cycles;  // none: not simulated (or the trial failed)
  std::uint64_t dram_bytes = 0;
};

// A layer's load order and how it was chosen, kept in LayerTiling::engine_plans under
// kLoadOrderNote (no note: ws, and nothing reported). The lowering that computes the layer
// tiles it for the order (the matrix lowering: psum_rows for rs).
struct LoadOrderPlan {
  LoadOrder order = LoadOrder::WeightStationary;
  std::optional<ComputeUnit> unit;
  std::uint32_t psum_rows = 0;  // rs: output rows per conv inside a band (0: the whole band)
  std::string choice;           // "auto" or "--load-order"
  std::string reason;
  std::vector<LoadOrderCandidate> candidates;
};
inline constexpr const char* kLoadOrderNote = "load_order";
const LoadOrderPlan* load_order_plan(const LayerTiling& t);
LoadOrder load_order_of(const LayerTiling& t);
// The input band stays in NRAM while the weight blocks stream past it (fs, rs).
bool input_resident(const LayerTiling& t);
nlohmann::json load_order_json(const LoadOrderPlan& p);

}  // namespace npusim
