#include "models/matrix_unit/Explain.h"

#include <vector>

#include <fmt/format.h>

#include "models/matrix_unit/MasterReads.h"
#include "sim/common/InputError.h"

namespace npusim {

namespace {

constexpr std::size_t kRoundsListed = 8;  // co rounds listed one by one; more are summarized by kind

std::string percent(double ratio) { return fmt::format("{:.1f}%", ratio * 100.0); }

std::string share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "-" : percent(double(part) / double(whole));
}

void describe_layer(const WfoldPlan& p, std::string& o) {
  const ConvShape& s = p.layer;
  o += fmt::format("layer      n={} hi={} wi={} ci={} -> co={}  kernel {}x{}  stride {}x{}  "
                   "pad t{} b{} l{} r{}  {} B/element\n",
                   s.n, s.hi, s.wi, s.ci, s.co, s.kh, s.kw, s.sh, s.sw, s.pad_top, s.pad_bottom,
                   s.pad_left, s.pad_right, s.element_bytes);
  o += fmt::format("output     ho={} wo={}\n", p.ho, p.wo);
  o += fmt::format("matrix     ns={} slaves x Ncu={} CUs, M={} B ({} lanes), L1={} rows, L2={} rows\n",
                   p.ns, p.ncu, p.m_bytes, p.lanes, p.l1, p.l2);
}

void describe_stride(const WfoldPlan& p, std::string& o) {
  const StrideTransform& t = p.stride;
  if (t.sw == 1) {
    o += "stride     sw=1: no W folding transform\n";
    return;
  }
  o += fmt::format("stride     sw={} folded into channels: input {}x{}x{} -> {}x{}x{} "
                   "(right pad {} incl. {} for alignment), kernel {}x{}x{} -> {}x{}x{} "
                   "({} zero taps), W stride 1\n",
                   t.sw, p.layer.padded_hi(), p.layer.padded_wi(), p.layer.ci, p.layer.padded_hi(),
                   t.folded_wi, t.folded_ci, t.pad_right, t.extra_right_pad, p.layer.kh,
                   p.layer.kw, p.layer.ci, p.layer.kh, t.folded_kw, t.folded_ci, t.kernel_zero_taps);
  o += fmt::format("           folded wo {} -> true wo {} ({} filtered)\n", t.folded_wo, t.true_wo,
                   t.folded_wo - t.true_wo);
}

void describe_split(const char* name, const char* fold, const ChannelSplit& c, std::string& o) {
  std::string table;
  for (const SplitCandidate& s : c.candidates)
    table += fmt::format(" {}B:{}{}", s.bytes, s.padding_bytes, s.allowed ? "" : "(too wide)");
  o += fmt::format("{:<10} {} B channels, padding per candidate{} -> {}={} B, {}={}, blocks={}, "
                   "padding {} B\n",
                   name, c.channel_bytes, table, name, c.bytes, fold, c.fold, c.blocks,
                   c.padding_bytes);
}

// Real co per slave over all rounds (co c -> slave c mod ns), as runs of equal counts.
void describe_slaves(const WfoldPlan& p, std::string& o) {
  std::vector<std::uint64_t> co(p.ns, 0);
  for (const CoRoundKind& k : co_round_kinds(p))
    for (std::uint32_t s = 0; s < p.ns; ++s) co[s] += p.co_on_slave(*k.block, s) * k.rounds;
  o += "slaves    ";
  for (std::uint32_t first = 0; first < p.ns;) {
    std::uint32_t last = first;
    while (last + 1 < p.ns && co[last + 1] == co[first]) ++last;
    o += first == last ? fmt::format(" slave {}: {} co;", first, co[first])
                       : fmt::format(" slaves {}-{}: {} co each;", first, last, co[first]);
    first = last + 1;
  }
  o += "\n";
}

std::string describe_round(const CoBlock& b) {
  return fmt::format(" [{}..{}) Aco {} Nco {};", b.first_co, b.first_co + b.count, b.aco, b.nco);
}

// Every round when there are few; otherwise one entry per kind of round (full, last).
void describe_rounds(const WfoldPlan& p, std::string& o) {
  if (p.co_blocks.size() <= kRoundsListed) {
    for (const CoBlock& b : p.co_blocks) o += describe_round(b);
    return;
  }
  for (const CoRoundKind& k : co_round_kinds(p)) {
    o += k.rounds == 1 ? describe_round(*k.block)
                       : fmt::format(" {} rounds [{}..{}) to [{}..{}), Aco {} Nco {} each;", k.rounds,
                                     k.block->first_co, k.block->first_co + k.block->count,
                                     k.block->first_co + (k.rounds - 1) * k.block->count,
                                     k.block->first_co + k.rounds * k.block->count, k.block->aco, k.block->nco);
  }
}

void describe_loops(const WfoldPlan& p, std::string& o) {
  o += fmt::format("Aco        {} (co {} aligned to ns {}), co rounds of up to {}:", p.aco,
                   p.layer.co, p.ns, p.co_blocks.front().count);
  describe_rounds(p, o);
  o += "\n";
  describe_slaves(p, o);
  o += fmt::format("kmax       L1*Ws - Ncu*Ws + 1 = {}; folded kw {} -> {} piece(s), Nkw={}\n",
                   p.kmax, p.stride.folded_kw, p.kw_pieces.size(), p.nkw);
  o += fmt::format("loops      Nco={} (inner) x Nkw={} (middle) x Nkh={} x Nci={} (outer) = "
                   "Ncycle {}; per tile with all kw pieces {}\n",
                   p.nco, p.nkw, p.nkh, p.bci, p.ncycle, p.ncycle_per_tile);
  o += fmt::format("tiles      wo by Ncu*Ws={} -> {} tile(s), then ho {}, then {} co round(s), "
                   "n {}: {} tiles\n",
                   p.wo_per_tile, p.wo_tiles, p.ho, p.co_blocks.size(), p.layer.n, p.tiles);
  o += fmt::format("buffers    second-buffer ring {} rows; third buffer {} B per slave\n",
                   p.second_buffer_ring, p.third_buffer_bytes_needed);
}

void describe_traffic(const WfoldPlan& p, std::string& o) {
  const DataRowReads& r = p.reads;
  o += fmt::format("data rows  {} read: {} request(s) of {} B per group of {} positions "
                   "({} row(s)), {} zero B per position; {} rows, {} requests, {} B broadcast\n",
                   data_row_read_name(r.mode), r.requests_per_group, r.bytes_per_request, p.ws,
                   r.rows_per_group, r.zero_bytes_per_position, p.data_rows, p.read_requests,
                   p.broadcast_bytes);
  o += fmt::format("weights    {} extended weight rows, {} B distributed\n", p.weight_rows,
                   p.distribution_bytes);
  describe_split("Pco", "Wso", p.pco, o);
  o += fmt::format("results    {}\n", p.requantized ? "requantized to int8 on the result path (1 B per element)"
                                                    : "int32/fp32 accumulators written back (4 B per element)");
  o += fmt::format("write-back {} requests, {} B\n", p.write_requests, p.output_bytes);
  o += fmt::format("reuse      input: {} co per slave x {} slaves; weight: Ncu {} x Ws {} = {} "
                   "per slave\n",
                   p.input_reuse_in_slave, p.input_reuse_across_slaves, p.weight_reuse_across_cus,
                   p.weight_reuse_in_cu, p.weight_reuse_in_slave);
}

// The figures of a plan whose tile pipeline was not followed: the busy cycles are exact, the
// total only bounded below by the busiest resource, and the utilizations above.
void describe_bounds(const WfoldPlan& p, double steps, std::string& o) {
  const CycleEstimate& c = p.cycles;
  o += fmt::format("pipeline   not followed: its {} tiles take about {:.3g} recurrence steps, more than explain's limit "
                   "of {} (kExplainPipelineSteps)\n",
                   p.tiles, steps, kExplainPipelineSteps);
  o += fmt::format("cycles     at least {} (compute, write-back or a bus's bytes at its rate); busy: compute {}, "
                   "first-buffer fill {}, weight distribution {} per slave, write-back {}\n",
                   c.busiest, c.compute, c.input_fill, c.weight_fill, c.write_back);
  o += fmt::format("utilization at most: MAC {}, broadcast bus {}, distribution bus {}\n", percent(p.mac_utilization),
                   percent(p.broadcast_utilization), percent(p.distribution_utilization));
}

void describe_cost(const WfoldPlan& p, double steps, std::string& o) {
  const MacBreakdown& m = p.macs;
  o += fmt::format("MACs       issued {}: useful {} ({}), wo alignment {} ({}), co alignment {} "
                   "({}), stride fold {} ({}), Pci padding {} ({})\n",
                   m.issued, m.useful, share(m.useful, m.issued), m.wo_alignment,
                   share(m.wo_alignment, m.issued), m.co_alignment, share(m.co_alignment, m.issued),
                   m.stride_fold, share(m.stride_fold, m.issued), m.pci_padding,
                   share(m.pci_padding, m.issued));
  if (!p.pipeline_followed) return describe_bounds(p, steps, o);
  const CycleEstimate& c = p.cycles;
  const TilePipeline& t = p.pipeline;
  o += fmt::format("pipeline   {} first-buffer window slot(s), {} third-buffer result set(s): {}\n", t.window_slots,
                   t.result_sets,
                   t.result_sets > 1 ? "a tile's write-back overlaps the next tiles' compute"
                                     : "tiles run one after another");
  o += fmt::format("cycles     {} total: compute {}, first-buffer fill {}, weight distribution {} per slave, "
                   "write-back {}\n",
                   c.total, c.compute, c.input_fill, c.weight_fill, c.write_back);
  o += fmt::format("idle CUs   waiting for a window {}, weights {}, a result set {}; drain after the last compute {}\n",
                   t.stalls.window, t.stalls.weights, t.stalls.result_set, t.stalls.drain);
  o += fmt::format("utilization MAC {}, broadcast bus {}, distribution bus {}\n",
                   percent(p.mac_utilization), percent(p.broadcast_utilization),
                   percent(p.distribution_utilization));
}

std::string tile_reads_text(DataRowRead mode, const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  const TileReads t = tile_reads_as(mode, p, cfg);
  std::string text = fmt::format("{}: {} NRAM requests, {} NRAM-port cycles", data_row_read_name(mode), t.ram_requests,
                                 t.nram_cycles);
  if (mode == DataRowRead::Relay)
    text += fmt::format(", {} relay rows, {} relay-port cycles", t.relay_rows, t.relay_cycles);
  return text;
}

// The §3.4 and §3.7 requests of one tile (the first co round, a full wo tile) on the load path,
// both ways when Bci > 1, and on the write-back path; the relay's size against what it needs.
void describe_requests(const WfoldPlan& p, const MatrixUnitConfig& cfg, std::string& o) {
  const DataRowRead other = p.reads.mode == DataRowRead::Relay ? DataRowRead::Strided : DataRowRead::Relay;
  o += fmt::format("requests   per tile, load path: {}", tile_reads_text(p.reads.mode, p, cfg));
  if (p.bci > 1) o += fmt::format("; instead {}", tile_reads_text(other, p, cfg));
  const TileWrites w = tile_writes(p, std::min(p.wo_per_tile, p.wo), p.co_blocks.front().count,
                                   cfg.write_back.bytes_per_cycle);
  o += fmt::format("\n           write-back: {} requests, {} port cycles\n", w.requests, w.cycles);
  const std::uint64_t group = std::uint64_t(p.ws) * p.reads.stride_bytes;
  if (p.bci == 1) {
    o += "relay      not needed: Bci = 1, rows are read contiguously\n";
    return;
  }
  o += fmt::format("relay      needs at least Ws*ci' = {} B for one group (¶111), {} B to keep a window for all {} "
                   "blocks; has {} B{}\n",
                   group, p.reads.relay_bytes_needed, p.bci, cfg.relay_bytes, cfg.relay_enabled ? "" : " (disabled)");
}

}  // namespace

std::string explain_wfold_plan(const WfoldPlan& p, double steps) {
  std::string o;
  describe_layer(p, o);
  describe_stride(p, o);
  describe_split("Pci", "Ws", p.pci, o);
  describe_loops(p, o);
  describe_traffic(p, o);
  describe_cost(p, steps, o);
  return o;
}

void check_explain_limit(double count, std::uint64_t limit, const std::string& what) {
  if (count <= double(limit)) return;
  throw InputError("layer spec", "size",
                   fmt::format("the layer's {:.0f} {} exceed explain's limit of {}; explain a part of the layer "
                               "(fewer rows, columns or channels)",
                               count, what, limit));
}

std::string explain_conv_layer(const HardwareConfig& cfg, const ConvShape& layer) {
  // The first core kind with a matrix unit: the one whose mapping applies.
  const CoreConfig* kind = &cfg.core;
  for (const CoreConfig* k : cfg.kinds())
    if (k->has_engine("matrix")) {
      kind = k;
      break;
    }
  const MatrixUnitConfig& mx = kind->block<MatrixUnitConfig>(MatrixUnitConfig::kSection);
  WfoldPlan plan = map_wfold_conv(mx, layer, result_path_requantizes(mx, layer));
  const double steps = pipeline_steps(plan, mx);
  if (steps <= double(kExplainPipelineSteps)) follow_tile_pipeline(plan, mx);
  std::string text = explain_wfold_plan(plan, steps);
  describe_requests(plan, mx, text);
  return text;
}

}  // namespace npusim
