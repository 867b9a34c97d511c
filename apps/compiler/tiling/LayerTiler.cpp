#include "apps/compiler/tiling/LayerTiler.h"

#include <algorithm>

#include <fmt/format.h>

#include "apps/compiler/tiling/LoadOrder.h"
#include "sim/common/InputError.h"
#include "sim/tensor/WindowGeometry.h"

namespace npusim {

namespace {

constexpr std::uint64_t kAlign = 64;  // NRAM regions start on a data-row boundary
std::uint64_t aligned(std::uint64_t b) { return (b + kAlign - 1) / kAlign * kAlign; }

bool windowed(const Layer& l) {
  return l.kind == LayerKind::Conv || l.kind == LayerKind::Depthwise || l.kind == LayerKind::Pool;
}

// Layers the matrix unit multiplies (conv, fc, matmul), whose outputs come in co blocks.
bool blocked(const Layer& l) { return (l.has_weights() && l.kind != LayerKind::Depthwise) || l.kind == LayerKind::Matmul; }

// An upsample's input rows under bands of `rows` output rows: the most any band reads
// (bands start at multiples of their rows, band_tile).
std::uint32_t upsample_in_rows(const Layer& l, std::uint32_t rows) {
  std::uint32_t most = 0;
  for (std::uint32_t r0 = 0; r0 < l.out.h; r0 += rows) {
    const auto [first, last] = resize_source_rows(l.resample, l.in.h, l.out.h, r0, std::min(r0 + rows, l.out.h) - 1);
    most = std::max(most, last - first + 1);
  }
  return most;
}

// A slot for bands of `rows` output rows whose results come out `out_rows` at a time
// (0: the whole band; fewer only for row-stationary, LoadOrder.h).
void size_slot(const Layer& l, LayerTiling& t, std::uint32_t rows, std::uint32_t out_rows = 0) {
  if (l.kind == LayerKind::Concat || l.kind == LayerKind::GatherChannels) {  // its stores read the loaded rows
    t.in_bytes = t.slot_bytes = concat_region_offset(l, rows, channel_moves(l).size());
    t.acc_bytes = t.out_bytes = t.recv_bytes = 0;
    return;
  }
  if (l.kind == LayerKind::ConcatTokens) {  // its loads land in the band's output rows, stored from there
    t.in_bytes = t.acc_bytes = t.recv_bytes = 0;
    t.out_bytes = t.slot_bytes = aligned(std::uint64_t(rows) * l.out.w * l.out.c);
    return;
  }
  const std::uint32_t in_rows = windowed(l)                       ? (rows - 1) * l.sh + t.kernel_h
                                : l.kind == LayerKind::Upsample ? upsample_in_rows(l, rows)
                                                                : rows;
  const std::uint32_t co = blocked(l) ? t.co_block : l.out.c;
  const std::uint64_t out_elems = std::uint64_t(out_rows ? out_rows : rows) * l.out.w * co;
  t.in_bytes = aligned(std::uint64_t(std::min(in_rows, l.in.h)) * l.in.w * t.ci);
  const bool accumulates = l.has_weights() || l.kind == LayerKind::Matmul;  // int32 sums (depthwise too)
  t.acc_bytes = accumulates && !t.requantize_on_result_path ? aligned(out_elems * 4) : 0;
  t.out_bytes = aligned(out_elems);
  t.recv_bytes = splits_ci(t.split) ? t.acc_bytes : 0;
  // A mul's gate and the constant of add_constant and mask take a second input region.
  const bool two_inputs = l.kind == LayerKind::Add || l.kind == LayerKind::Mul || l.has_constant();
  t.slot_bytes = t.in_bytes * (two_inputs ? 2 : 1) + t.acc_bytes + t.out_bytes + t.recv_bytes;
}

bool fits(const Layer& l, LayerTiling& t, std::uint32_t rows, std::uint32_t buffers, std::uint64_t nram) {
  size_slot(l, t, rows);
  return t.fixed_bytes + buffers * t.slot_bytes <= nram;
}

// A pool's channels are independent: when one output row of all of them does not fit
// NRAM (a global pool over a large map reads the whole map for its one row), the
// channels go in the fewest equal blocks that fit, one pass each (co_block, co_blocks).
void block_pool_channels(const Layer& l, LayerTiling& t, std::uint64_t nram) {
  if (l.kind != LayerKind::Pool || fits(l, t, 1, 1, nram)) return;
  for (std::uint32_t blocks = 2; blocks <= l.in.c; ++blocks) {
    t.ci = (l.in.c + blocks - 1) / blocks;
    if (!fits(l, t, 1, 1, nram)) continue;
    t.co_block = t.ci;
    t.co_blocks = (l.in.c + t.co_block - 1) / t.co_block;
    return;
  }
  t.ci = l.in.c;  // not even one channel fits: choose_rows names the capacity
}

void choose_rows(const Workload& w, const Layer& l, LayerTiling& t, const CoreConfig& core, std::uint32_t cores) {
  const std::uint64_t nram = core.nram.capacity_bytes;
  for (t.buffers = 2; t.buffers >= 1; --t.buffers) {
    if (!fits(l, t, 1, t.buffers, nram)) continue;
    std::uint32_t lo = 1, hi = l.out.h;  // largest rows that fit
    while (lo < hi) {
      std::uint32_t mid = (lo + hi + 1) / 2;
      if (fits(l, t, mid, t.buffers, nram)) lo = mid; else hi = mid - 1;
    }
    // Enough bands to give every core work, then even them out.
    std::uint32_t bands = (l.out.h + lo - 1) / lo;
    const std::uint32_t want = std::min<std::uint32_t>(l.out.h, (cores + w.batch - 1) / w.batch);
    bands = std::max(bands, want);
    t.rows = (l.out.h + bands - 1) / bands;
    t.bands = (l.out.h + t.rows - 1) / t.rows;
    size_slot(l, t, t.rows);
    return;
  }
  size_slot(l, t, 1);
  throw InputError(w.file, layer_place(l),
                   fmt::format("does not fit NRAM even at one output row: {} bytes needed (fixed {}, input {}, "
                               "accumulators {}, output {}) but NRAM holds {} bytes",
                               t.fixed_bytes + t.slot_bytes, t.fixed_bytes, t.in_bytes, t.acc_bytes, t.out_bytes, nram));
}

// Row-stationary (LoadOrder.h): half of NRAM after the fixed region holds the buffered
// input windows of tall bands, the other half the buffered results of `psum_rows` rows.
// `want`: the fewest bands per image (to give the cores work). Gives the psum rows, or 0
// and the tiling as it was when that makes no taller band than it has.
std::uint32_t tile_row_stationary(const Layer& l, LayerTiling& t, std::uint64_t nram, std::uint32_t want) {
  const std::uint64_t half = (nram - std::min(nram, t.fixed_bytes)) / 2;
  auto psum_bytes = [&](std::uint32_t r) {
    size_slot(l, t, r, r);
    return t.buffers * (t.slot_bytes - t.in_bytes);
  };
  auto input_bytes = [&](std::uint32_t rows) {
    size_slot(l, t, rows, 1);
    return t.buffers * t.in_bytes;
  };
  std::uint32_t psum = 1, tall = 0;
  while (psum < l.out.h && psum_bytes(psum + 1) <= half) ++psum;
  for (std::uint32_t rows = l.out.h; rows > 0 && !tall; --rows)
    if (input_bytes(rows) <= half) tall = rows;
  const std::uint32_t bands = std::max<std::uint32_t>((l.out.h + std::max(tall, 1u) - 1) / std::max(tall, 1u),
                                                      std::min(l.out.h, want));
  const std::uint32_t rows = (l.out.h + bands - 1) / bands;
  if (psum_bytes(1) > half || rows <= t.rows) {
    size_slot(l, t, t.rows);
    return 0;
  }
  t.rows = rows;
  t.bands = (l.out.h + rows - 1) / rows;
  size_slot(l, t, rows, std::min(psum, rows));
  return std::min(psum, rows);
}

}  // namespace

const CoreConfig& LayerTiling::kind(const HardwareConfig& hw) const { return *hw.kinds().at(core_kind); }

BandWindow LayerTiling::band(const Layer& l, std::uint32_t row0, std::uint32_t n) const {
  BandWindow b;
  if (l.kind == LayerKind::Upsample) {
    const auto [first, last] = resize_source_rows(l.resample, l.in.h, l.out.h, row0, row0 + n - 1);
    return {first, last - first + 1, 0, 0};
  }
  if (!windowed(l)) return {row0, n, 0, 0};
  // Padded input rows [row0*sh, row0*sh + (n-1)*sh + kh) shifted by the top padding, clipped to the map.
  const std::int64_t first = std::int64_t(row0) * l.sh - l.pad[0];
  const std::int64_t last = first + std::int64_t(n - 1) * l.sh + kernel_h;  // exclusive
  const std::int64_t lo = std::max<std::int64_t>(first, 0), hi = std::min<std::int64_t>(last, l.in.h);
  b.in_row0 = std::uint32_t(lo);
  b.in_rows = std::uint32_t(hi - lo);
  b.pad_top = std::uint32_t(lo - first);
  b.pad_bottom = std::uint32_t(last - hi);
  return b;
}

LayerTiling::BandTile LayerTiling::band_tile(const Layer& l, std::uint64_t tile) const {
  const auto image = std::uint32_t(tile / (std::uint64_t(bands) * runs_per_image));
  const auto row0 = std::uint32_t(tile % bands) * rows;
  const std::uint32_t n = std::min(rows, l.out.h - row0);
  return {image, row0, n, band(l, row0, n)};
}

std::uint32_t LayerTiling::input_rows_read(const Layer& l) const {
  std::uint32_t rows = 0, covered = 0;  // windows move down, so rows below `covered` are counted
  for (std::uint32_t r = 0; r < l.out.h; ++r) {
    const BandWindow b = band(l, r, 1);
    const std::uint32_t from = std::max(b.in_row0, covered), to = b.in_row0 + b.in_rows;
    if (to > from) rows += to - from;
    covered = std::max(covered, to);
  }
  return rows;
}

std::pair<std::uint32_t, std::uint32_t> LayerTiling::core_block(const Layer& l, std::size_t index, std::uint32_t b) const {
  if (!splits_co(split)) return {block_first_co(b), block_count(l, b)};
  const auto [lo, hi] = shares.at(index);
  const std::uint32_t first = lo + block_first_co(b);
  return {first, first < hi ? std::min(co_block, hi - first) : 0};
}

std::pair<std::uint32_t, std::uint32_t> LayerTiling::core_channels_in(const Layer& l, std::size_t index) const {
  if (!splits_ci(split)) return {0, l.in.c};
  return {shares.at(index).first, shares.at(index).second - shares.at(index).first};
}

LayerTiling::MatmulBlock LayerTiling::matmul_block(const Layer& l, std::uint64_t tile) const {
  const std::uint64_t run = tile / bands % runs_per_image;
  const auto head = std::uint32_t(run / co_blocks), first = std::uint32_t(run % co_blocks) * co_block;
  return {head, first, std::min(co_block, l.matmul().n - first)};
}

std::uint32_t LayerTiling::block_count(const Layer& l, std::uint32_t b) const {
  if (!blocked(l) && co_block == 0) return l.out.c;  // a pool's channel blocks have a co_block
  return std::min(co_block, l.out.c - block_first_co(b));
}

ConvShape band_conv_shape(const Layer& l, const LayerTiling& t, const BandWindow& b, std::uint32_t co) {
  ConvShape s;
  s.hi = b.in_rows;
  s.wi = l.in.w;
  s.ci = t.ci;
  s.co = co;
  s.kh = t.kernel_h;
  s.kw = t.kernel_w;
  s.sh = l.sh;
  s.sw = l.sw;
  s.pad_top = b.pad_top;
  s.pad_bottom = b.pad_bottom;
  s.pad_left = l.pad[2];
  s.pad_right = l.pad[3];
  return s;
}

std::vector<ChannelMove> channel_moves(const Layer& l) {
  std::vector<ChannelMove> moves;
  std::uint32_t to = 0;
  if (l.kind == LayerKind::Concat)
    for (std::size_t i = 0; i < l.concat_channels.size(); to += l.concat_channels[i++])
      moves.push_back({i, l.concat_channels[i], 0, l.concat_channels[i], to});
  if (l.kind != LayerKind::GatherChannels) return moves;
  for (const std::uint32_t id : *l.channel_ids) {
    if (!moves.empty() && moves.back().from + moves.back().count == id) ++moves.back().count;
    else moves.push_back({0, l.in.c, id, 1, to});
    ++to;
  }
  return moves;
}

std::uint64_t concat_region_offset(const Layer& l, std::uint32_t rows, std::size_t move) {
  const std::vector<ChannelMove> moves = channel_moves(l);
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < move; ++i) at += aligned(std::uint64_t(rows) * l.in.w * moves.at(i).count);
  return at;
}

bool positions_in_one_row(const Layer& l) { return l.kind == LayerKind::Fc || l.kind == LayerKind::Matmul; }

std::vector<std::uint64_t> matrix_band_shape(const Layer& l, std::uint32_t rows, std::uint32_t width,
                                             std::uint32_t channels) {
  if (positions_in_one_row(l)) return {1, 1, std::uint64_t(rows) * width, channels};
  return {1, rows, width, channels};
}

// A model mode: the cores that take part and the largest share they size buffers for.
void apply_shares(const Layer& l, LayerTiling& t, const ChannelShares& s) {
  t.split = s.mode;
  t.cores = s.cores;
  t.shares = s.ranges;
  t.group = s.group ? s.group : std::uint32_t(s.cores.size());
  std::uint32_t largest = 0;
  for (const auto& [lo, hi] : s.ranges) largest = std::max(largest, hi - lo);
  (splits_co(s.mode) ? t.co : t.ci) = largest;
}

std::string layer_place(const Layer& l) {
  return l.line ? fmt::format("line {} ({})", l.line, l.name) : fmt::format("layer '{}'", l.name);
}

LayerTiling start_tiling(const Layer& l) {
  LayerTiling t;
  t.kernel_h = std::uint32_t(dilated_extent(l.kh, l.dilation));
  t.kernel_w = std::uint32_t(dilated_extent(l.kw, l.dilation));
  t.ci = l.kind == LayerKind::Matmul ? l.matmul().k : l.in.c / l.groups;  // a grouped conv: one group's
  t.co = l.kind == LayerKind::Matmul ? l.matmul().n : l.out.c;
  return t;
}

// Of the kinds with every engine it uses, the most specialised one (fewest other
// engines), then the one with most cores, then the earlier one. So on a chip of Wfold
// cores and vector-only cores, convs run on the former and pooling and adds on the
// latter. One kind per layer keeps one tiling per layer.
bool place_on(const std::string& compute, const std::vector<std::string>& needed, LayerTiling& t,
              const HardwareConfig& hw) {
  t.engine = compute;
  const auto kinds = hw.kinds();
  auto cores_of = [&](const CoreConfig* kind) {
    std::size_t count = 0;
    for (std::uint32_t i = 0; i < hw.chip.cores(); ++i) count += &hw.core_of(i) == kind;
    return count;
  };
  std::size_t best = kinds.size();
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    if (!std::all_of(needed.begin(), needed.end(), [&](const std::string& e) { return kinds[k]->has_engine(e); }))
      continue;
    if (cores_of(kinds[k]) == 0) continue;
    if (best == kinds.size() || kinds[k]->engines.size() < kinds[best]->engines.size() ||
        (kinds[k]->engines.size() == kinds[best]->engines.size() && cores_of(kinds[k]) > cores_of(kinds[best])))
      best = k;
  }
  if (best == kinds.size()) return false;
  t.core_kind = std::uint32_t(best);
  for (std::uint32_t i = 0; i < hw.chip.cores(); ++i)
    if (&hw.core_of(i) == kinds[best]) t.cores.push_back(i);
  return true;
}

void tile_bands(const Workload& w, const Layer& l, const HardwareConfig& hw, LayerTiling& t) {
  // Depthwise weights as loaded: the kernel after dilation.
  if (l.kind == LayerKind::Depthwise) t.fixed_bytes = aligned(std::uint64_t(t.kernel_h) * t.kernel_w * l.in.c);
  // A model mode gives every core every band: one band may be enough, but with separate
  // memories model-co wants a band per cluster, so each cluster starts on rows in its own
  // memory (TraceEmitter::start_layer) and the clusters read different memories. Data and
  // hybrid modes want a run of bands per core or per group.
  const bool separate_memories = hw.chip.dram.interleave_bytes == 0 && hw.chip.dram.channels > 1;
  const std::uint32_t want = !is_pure_model(t.split)
                                 ? std::uint32_t((t.groups() + t.runs_per_image - 1) / t.runs_per_image)
                             : t.split == ParallelMode::ModelCo && separate_memories ? hw.chip.clusters
                                                                                   : 1;
  block_pool_channels(l, t, t.kind(hw).nram.capacity_bytes);
  choose_rows(w, l, t, t.kind(hw), want);
  const auto note = t.engine_plans.find(kLoadOrderNote);
  if (note == t.engine_plans.end() || !blocked(l)) return;
  auto& order = std::any_cast<LoadOrderPlan&>(note->second);
  // Model-ci reduces one conv's partial sums per band: its bands keep one conv each.
  if (order.order == LoadOrder::RowStationary && t.split != ParallelMode::ModelCi)
    order.psum_rows = tile_row_stationary(l, t, t.kind(hw).nram.capacity_bytes,
                                          std::min<std::uint32_t>(l.out.h, (want + w.batch - 1) / w.batch));
}

}  // namespace npusim
