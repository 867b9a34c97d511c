#include "models/matrix_unit/WfoldMapping.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "models/matrix_unit/MasterReads.h"
#include "models/matrix_unit/WfoldTraffic.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

const char* const kConfigName = "hardware config";
const char* const kLayerName = "layer spec";

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

[[noreturn]] void config_error(const std::string& key, const std::string& reason) {
  throw InputError(kConfigName, "/core/matrix/" + key, reason);
}

void check_config(const MatrixUnitConfig& cfg, std::uint32_t element_bytes) {
  if (cfg.slaves == 0) config_error("slaves", "must be at least 1");
  if (cfg.cus_per_slave == 0) config_error("cus_per_slave", "must be at least 1");
  if (cfg.row_bytes == 0 || cfg.row_bytes % element_bytes != 0)
    config_error("row_bytes", "M = " + std::to_string(cfg.row_bytes) +
                                  " must be a positive multiple of the element size " +
                                  std::to_string(element_bytes));
  if (cfg.second_buffer_rows == 0) config_error("second_buffer_rows", "must be at least 1");
  if (cfg.co_block == 0) config_error("co_block", "must be at least 1");
  if (!(cfg.broadcast_bus.bytes_per_cycle > 0))
    config_error("broadcast_bus/bytes_per_cycle", "must be positive");
  if (!(cfg.distribution_bus.bytes_per_cycle > 0))
    config_error("distribution_bus/bytes_per_cycle", "must be positive");
  if (!(cfg.write_back.bytes_per_cycle > 0)) config_error("write_back/bytes_per_cycle", "must be positive");
  if (cfg.third_buffer_depth == 0) config_error("third_buffer_depth", "must be at least 1");
  // The rules between keys are the loader's own (one check for both).
  check_matrix_unit_config(cfg, SectionPlace{kConfigName, "/core/matrix"});
}

// The plan keeps one entry per co round and per kernel-width piece; a layer needing more than
// kMaxPlanEntries of either is refused rather than allocated (no real layer comes near).
constexpr std::uint64_t kMaxPlanEntries = std::uint64_t(1) << 20;

void check_plan_entries(std::uint64_t entries, const char* key, const char* what) {
  if (entries > kMaxPlanEntries)
    throw InputError(kLayerName, key,
                     "the layer needs " + std::to_string(entries) + " " + what + "; the matrix unit's plan holds at most " +
                         std::to_string(kMaxPlanEntries));
}

// MACs past these would wrap the plan's 64-bit counts (the issued ones with the padding of a
// narrow wo or co, and the bus bytes and cycles derived from them).
constexpr double kMaxUsefulMacs = 0x1p56;
constexpr double kMaxIssuedMacs = 0x1p58;

// The plan counts channel bytes in 32 bits and MACs in 64: refuse layers whose counts would wrap.
void check_layer_size(const ConvShape& s) {
  const std::uint64_t channel_bytes = std::uint64_t(s.sw) * s.ci * s.element_bytes;
  if (channel_bytes > UINT32_MAX)
    throw InputError(kLayerName, "ci", "sw x ci x element bytes = " + std::to_string(channel_bytes) +
                                           " bytes per folded position; the matrix unit handles at most " +
                                           std::to_string(UINT32_MAX));
  const double macs = double(s.n) * s.ho() * s.wo() * s.co * s.kh * s.kw * s.ci;
  if (macs > kMaxUsefulMacs)
    throw InputError(kLayerName, "size", fmt::format("the layer has about {:.3g} MACs; explain and the matrix unit count at most 2^56",
                                                     macs));
}

StrideTransform make_stride_transform(const ConvShape& s) {
  StrideTransform t;
  t.sw = s.sw;
  t.pad_left = s.pad_left;
  std::uint32_t padded = s.padded_wi();
  t.extra_right_pad = (s.sw - padded % s.sw) % s.sw;
  t.pad_right = s.pad_right + t.extra_right_pad;
  t.folded_wi = (padded + t.extra_right_pad) / s.sw;
  t.folded_kw = static_cast<std::uint32_t>(ceil_div(s.kw, s.sw));
  t.kernel_zero_taps = t.folded_kw * s.sw - s.kw;
  t.folded_ci = s.sw * s.ci;
  t.folded_wo = t.folded_wi - t.folded_kw + 1;
  t.true_wo = s.wo();
  return t;
}

std::vector<CoBlock> make_co_blocks(std::uint32_t co, std::uint32_t co_block, std::uint32_t ns) {
  std::vector<CoBlock> blocks;
  for (std::uint32_t first = 0; first < co; first += co_block) {
    CoBlock b;
    b.first_co = first;
    b.count = std::min(co_block, co - first);
    b.nco = static_cast<std::uint32_t>(ceil_div(b.count, ns));
    b.aco = b.nco * ns;
    blocks.push_back(b);
  }
  return blocks;
}

std::vector<KwPiece> make_kw_pieces(std::uint32_t folded_kw, std::uint32_t kmax,
                                    std::uint32_t ncu, std::uint32_t ws) {
  std::vector<KwPiece> pieces;
  for (std::uint32_t first = 0; first < folded_kw; first += kmax) {
    KwPiece p;
    p.first = first;
    p.length = std::min(kmax, folded_kw - first);
    p.data_rows = ncu + static_cast<std::uint32_t>(ceil_div(p.length - 1, ws));
    pieces.push_back(p);
  }
  return pieces;
}

DataRowReads make_data_row_reads(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  DataRowReads r;
  std::uint32_t position_bytes = p.stride.folded_ci * p.element_bytes;  // ci' in bytes
  r.rows_per_group = p.bci;
  r.zero_bytes_per_position = p.pci.padding_bytes;
  r.last_block_bytes = position_bytes - (p.bci - 1) * p.pci.bytes;
  r.stride_bytes = position_bytes;
  r.groups_per_input_row = static_cast<std::uint32_t>(ceil_div(p.stride.folded_wi, p.ws));
  std::uint32_t max_rows = 0;
  for (const KwPiece& k : p.kw_pieces) max_rows = std::max(max_rows, k.data_rows);
  r.relay_bytes_needed = std::uint64_t(max_rows) * p.ws * position_bytes;
  r.relay_holds_window = cfg.relay_bytes >= r.relay_bytes_needed;
  if (p.bci == 1) {
    r.mode = DataRowRead::Contiguous;  // the Ws positions sit next to each other (¶103)
    r.requests_per_group = 1;
    r.bytes_per_request = p.ws * position_bytes;
  } else if (cfg.relay_enabled && r.relay_holds_window) {
    r.mode = DataRowRead::Relay;  // whole positions into registers, Pci slices out (¶111)
    r.requests_per_group = p.ws;
    r.bytes_per_request = position_bytes;
  } else {
    r.mode = DataRowRead::Strided;  // one request per position per row (¶107)
    r.requests_per_group = p.ws * p.bci;
    r.bytes_per_request = p.pci.bytes;
  }
  return r;
}

// Output channels in rounds, the kernel width in pieces, and the loop counts (§3.5, §3.6).
void plan_loop_nest(WfoldPlan& p, const MatrixUnitConfig& cfg) {
  const ConvShape& layer = p.layer;
  p.aco = static_cast<std::uint32_t>(ceil_div(layer.co, p.ns) * p.ns);
  check_plan_entries(ceil_div(layer.co, cfg.co_block), "co", "co rounds (co / co_block)");
  p.co_blocks = make_co_blocks(layer.co, cfg.co_block, p.ns);
  p.nco = p.co_blocks.front().nco;

  p.kmax = (p.l1 - p.ncu) * p.ws + 1;
  p.nkw = std::min(p.stride.folded_kw, p.kmax);
  check_plan_entries(ceil_div(p.stride.folded_kw, p.kmax), "kw", "kernel-width pieces (folded kw / kmax)");
  p.kw_pieces = make_kw_pieces(p.stride.folded_kw, p.kmax, p.ncu, p.ws);
  p.nkh = layer.kh;
  p.ncycle = std::uint64_t(p.nco) * p.nkw * p.nkh * p.bci;
  p.ncycle_per_tile = std::uint64_t(p.nco) * p.stride.folded_kw * p.nkh * p.bci;
}

// The tiles, the second-buffer ring and the third buffer a tile's results need.
void plan_tiles(WfoldPlan& p, const MatrixUnitConfig& cfg, bool requantize) {
  p.wo_per_tile = p.ncu * p.ws;
  p.wo_tiles = static_cast<std::uint32_t>(ceil_div(p.wo, p.wo_per_tile));
  p.tiles = std::uint64_t(p.layer.n) * p.ho * p.wo_tiles * p.co_blocks.size();
  p.second_buffer_ring = p.nco <= p.l2 ? (p.l2 / p.nco) * p.nco : p.l2;
  p.requantized = requantize;
  p.output_element_bytes = requantize ? 1 : WfoldPlan::kAccumulatorBytes;
  const std::uint64_t third_buffer_need = std::uint64_t(p.nco) * p.wo_per_tile * WfoldPlan::kAccumulatorBytes;
  p.third_buffer_bytes_needed = std::uint32_t(std::min<std::uint64_t>(third_buffer_need, UINT32_MAX));
  if (third_buffer_need > cfg.third_buffer_bytes)
    throw InputError(kLayerName, "co",
                     "a round of " + std::to_string(p.co_blocks.front().count) +
                         " output channels needs " + std::to_string(third_buffer_need) +
                         " bytes of third buffer per slave (Nco " + std::to_string(p.nco) +
                         " x Ncu*Ws " + std::to_string(p.wo_per_tile) +
                         " x 4 B), but the config gives " +
                         std::to_string(cfg.third_buffer_bytes) + " (lower co_block)");
}

MacBreakdown make_mac_breakdown(const WfoldPlan& p) {
  const ConvShape& s = p.layer;
  std::uint64_t positions = std::uint64_t(s.n) * p.ho * p.wo;
  std::uint64_t aligned_positions = std::uint64_t(s.n) * p.ho * p.wo_tiles * p.wo_per_tile;
  std::uint64_t aligned_co = 0;
  for (const CoRoundKind& r : co_round_kinds(p)) aligned_co += r.block->aco * r.rounds;
  std::uint64_t window = std::uint64_t(s.kh) * s.kw * s.ci;
  std::uint64_t folded_window = std::uint64_t(s.kh) * p.stride.folded_kw * p.stride.folded_ci;
  std::uint64_t padded_window = std::uint64_t(s.kh) * p.stride.folded_kw * p.bci * p.pci_elems;
  // Padding multiplies the useful MACs; every other count of the plan stays below the issued ones.
  const double issued = double(aligned_positions) * double(aligned_co) * double(padded_window);
  if (issued > kMaxIssuedMacs)
    throw InputError(kLayerName, "size",
                     fmt::format("the layer issues about {:.3g} MACs with its padding; the matrix unit counts at most "
                                 "2^58",
                                 issued));
  MacBreakdown m;
  m.useful = positions * s.co * window;
  m.wo_alignment = (aligned_positions - positions) * s.co * window;
  m.co_alignment = aligned_positions * (aligned_co - s.co) * window;
  m.stride_fold = aligned_positions * aligned_co * (folded_window - window);
  m.pci_padding = aligned_positions * aligned_co * (padded_window - folded_window);
  m.issued = aligned_positions * aligned_co * padded_window;
  return m;
}

// The ratios over `total` cycles: the pipeline's total, or the busiest resource's cycles
// (a lower bound of it, so the ratios are upper bounds) before the pipeline is followed.
void fill_ratios(WfoldPlan& p, const MatrixUnitConfig& cfg, Cycles total) {
  double cycles = static_cast<double>(total);
  double peak = peak_macs_per_cycle(cfg, p.layer.element_bytes);
  p.mac_utilization = double(p.macs.useful) / (cycles * peak);
  p.compute_efficiency = double(p.macs.useful) / double(p.macs.issued);
  p.broadcast_utilization = double(p.broadcast_bytes) / (cycles * cfg.broadcast_bus.bytes_per_cycle);
  p.distribution_utilization =
      double(p.distribution_bytes) / (cycles * cfg.distribution_bus.bytes_per_cycle * p.ns);
}

}  // namespace

TileWrites tile_writes(const WfoldPlan& p, std::uint32_t wo_valid, std::uint32_t co_count, double bytes_per_cycle) {
  auto port_cycles = [&](std::uint64_t bytes) {
    return std::max<Cycles>(1, static_cast<Cycles>(std::ceil(double(bytes) / bytes_per_cycle - 1e-9)));
  };
  const std::uint64_t co_bytes = std::uint64_t(co_count) * p.output_element_bytes;
  TileWrites w;
  // Neighbouring w are contiguous only when the round holds every co (¶152): then one
  // request carries up to Wso positions.
  if (co_count == p.layer.co && co_bytes <= p.pco.bytes) {
    for (std::uint32_t first = 0; first < wo_valid; first += p.pco.fold, ++w.requests)
      w.cycles += port_cycles(std::min<std::uint64_t>(p.pco.fold, wo_valid - first) * co_bytes);
    return w;
  }
  // Otherwise each position takes its whole Pco blocks and the remainder (¶153-¶155).
  const std::uint64_t blocks = co_bytes / p.pco.bytes, rest = co_bytes % p.pco.bytes;
  w.requests = std::uint64_t(wo_valid) * (blocks + (rest > 0 ? 1 : 0));
  w.cycles = wo_valid * (blocks * port_cycles(p.pco.bytes) + (rest > 0 ? port_cycles(rest) : 0));
  return w;
}

Cycles readout_cycles(const WfoldPlan& p, const CoBlock& round, const MatrixUnitConfig& cfg) {
  const double bytes = double(round.nco) * p.wo_per_tile * WfoldPlan::kAccumulatorBytes;
  return static_cast<Cycles>(std::ceil(bytes / cfg.readout_bytes_per_cycle - 1e-9));
}

std::vector<CoRoundKind> co_round_kinds(const WfoldPlan& p) {
  const CoBlock& first = p.co_blocks.front();
  const CoBlock& last = p.co_blocks.back();
  const std::uint64_t rounds = p.co_blocks.size();
  if (last.count == first.count) return {{&first, rounds}};
  std::vector<CoRoundKind> kinds;
  if (rounds > 1) kinds.push_back({&first, rounds - 1});
  kinds.push_back({&last, 1});
  return kinds;
}

std::vector<WoTileKind> wo_tile_kinds(const WfoldPlan& p) {
  const std::uint32_t last = p.wo - (p.wo_tiles - 1) * p.wo_per_tile;
  if (last == p.wo_per_tile) return {{p.wo_per_tile, p.wo_tiles}};
  std::vector<WoTileKind> kinds;
  if (p.wo_tiles > 1) kinds.push_back({p.wo_per_tile, p.wo_tiles - 1});
  kinds.push_back({last, 1});
  return kinds;
}

WfoldPlanKey wfold_plan_key(const ConvShape& l, bool requantize) {
  return {l.n,        l.hi,         l.wi,       l.ci,        l.co,           l.kh, l.kw, l.sh, l.sw,
          l.pad_top, l.pad_bottom, l.pad_left, l.pad_right, l.element_bytes, requantize ? 1u : 0u};
}

bool result_path_requantizes(const MatrixUnitConfig& cfg, const ConvShape& layer) {
  return cfg.result_requantize && layer.element_bytes == 1;
}

const char* data_row_read_name(DataRowRead mode) {
  switch (mode) {
    case DataRowRead::Contiguous: return "contiguous";
    case DataRowRead::Strided: return "strided";
    case DataRowRead::Relay: return "relay";
  }
  return "?";
}

ChannelSplit choose_channel_split(std::uint32_t channel_bytes, std::uint32_t width,
                                  std::uint32_t element_bytes, const MatrixUnitConfig& cfg) {
  ChannelSplit split;
  split.channel_bytes = channel_bytes;
  const std::uint32_t m = cfg.row_bytes;
  auto usable = [&](std::uint32_t c) {
    return c > 0 && c <= m && m % c == 0 && c % element_bytes == 0;
  };
  std::uint32_t least_fold = 0;  // fold of the largest usable candidate
  for (std::uint32_t c : cfg.pci_candidates) {
    if (!usable(c)) continue;
    std::uint32_t padding = static_cast<std::uint32_t>(ceil_div(channel_bytes, c) * c - channel_bytes);
    split.candidates.push_back({c, padding, m / c <= width});
    if (least_fold == 0 || m / c < least_fold) least_fold = m / c;
  }
  if (split.candidates.empty())
    config_error("pci_candidates", "no candidate divides M = " + std::to_string(m) +
                                       " and holds whole elements of " +
                                       std::to_string(element_bytes) + " bytes");
  // W / Ws >= 1 (¶86). A width narrower than every fold keeps the least folding candidate.
  bool any_allowed = std::any_of(split.candidates.begin(), split.candidates.end(),
                                 [](const SplitCandidate& s) { return s.allowed; });
  if (!any_allowed)
    for (SplitCandidate& s : split.candidates) s.allowed = (m / s.bytes == least_fold);

  std::uint32_t min_padding = UINT32_MAX;
  for (const SplitCandidate& s : split.candidates)
    if (s.allowed) min_padding = std::min(min_padding, s.padding_bytes);
  for (const SplitCandidate& s : split.candidates) {
    bool close = s.padding_bytes == min_padding ||
                 s.padding_bytes - min_padding < cfg.pci_padding_tolerance;
    if (s.allowed && close && s.bytes > split.bytes) split.bytes = s.bytes;
  }
  split.fold = m / split.bytes;
  split.blocks = static_cast<std::uint32_t>(ceil_div(channel_bytes, split.bytes));
  split.padding_bytes = split.blocks * split.bytes - channel_bytes;
  return split;
}

WfoldPlan map_wfold_conv(const MatrixUnitConfig& cfg, const ConvShape& layer, bool requantize) {
  validate_conv_shape(layer);
  check_config(cfg, layer.element_bytes);
  if (requantize && layer.element_bytes != 1)
    throw InputError(kLayerName, "dtype", "the result path requantizes int32 results only; this layer is not int8");
  if (requantize && !cfg.result_requantize)
    config_error("result_requantize", "is false: this matrix unit's result path cannot requantize");
  WfoldPlan p;
  p.layer = layer;
  p.element_bytes = layer.element_bytes;
  p.ns = cfg.slaves;
  p.ncu = cfg.cus_per_slave;
  p.m_bytes = cfg.row_bytes;
  p.lanes = cfg.row_bytes / layer.element_bytes;
  p.l1 = cfg.first_buffer_rows;
  p.l2 = cfg.second_buffer_rows;

  check_layer_size(layer);
  p.stride = make_stride_transform(layer);
  p.ho = layer.ho();
  p.wo = p.stride.true_wo;

  p.pci = choose_channel_split(p.stride.folded_ci * layer.element_bytes, p.stride.folded_wi,
                               layer.element_bytes, cfg);
  p.pci_elems = p.pci.bytes / layer.element_bytes;
  p.ws = p.pci.fold;
  p.bci = p.pci.blocks;

  plan_loop_nest(p, cfg);
  plan_tiles(p, cfg, requantize);

  p.input_reuse_in_slave = p.nco;
  p.input_reuse_across_slaves = p.ns;
  p.weight_reuse_across_cus = p.ncu;
  p.weight_reuse_in_cu = p.ws;
  p.weight_reuse_in_slave = p.ncu * p.ws;

  p.pco = choose_channel_split(std::min(layer.co, cfg.co_block) * p.output_element_bytes, p.wo,
                               p.output_element_bytes, cfg);
  p.reads = make_data_row_reads(p, cfg);
  p.macs = make_mac_breakdown(p);
  estimate_wfold_traffic(p, cfg);
  fill_ratios(p, cfg, p.cycles.busiest);
  return p;
}

void follow_tile_pipeline(WfoldPlan& p, const MatrixUnitConfig& cfg) {
  p.pipeline = schedule_tiles(p, cfg);
  p.cycles.total = p.pipeline.total;
  p.pipeline_followed = true;
  fill_ratios(p, cfg, p.cycles.total);
}

WfoldPlan plan_wfold_conv(const MatrixUnitConfig& cfg, const ConvShape& layer, bool requantize) {
  WfoldPlan p = map_wfold_conv(cfg, layer, requantize);
  follow_tile_pipeline(p, cfg);
  return p;
}

}  // namespace npusim
