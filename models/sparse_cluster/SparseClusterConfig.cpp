#include "models/sparse_cluster/SparseClusterConfig.h"

#include <fmt/format.h>

#include "models/sparse_cluster/SparseIsoArea.h"
#include "models/sparse_compute_unit/ProductIndex.h"

namespace npusim {

namespace {

// The compute interconnect 920 and the weight memory's refills (issue 31).
template <typename Keys>
void add_link_keys(Keys& sp) {
  using S = SparseClusterConfig;
  sp.add(choice(sp("compute_interconnect", &S::compute_interconnect), "none", {"none", "2x2", "benes"},
                "compute interconnect 920 (seed001 Fig. 9): none keeps independent units whose sub-maps overlap "
                "by k-1 (cluster 800); 2x2 joins unit i and i+1, benes any unit to any. With one fitted the "
                "input map is partitioned without overlap and border partial sums travel between units "
                "(models/compute_interconnect/README.md)"));
  sp.add(latency(sp("compute_stage_cycles", &S::compute_stage_cycles), 1,
                 sp.what + "cycles per switch stage of the compute interconnect (2x2: 1 stage; benes: "
                           "2 log2(units) - 1 stages), paid per pass"));
  sp.add(bandwidth(sp("compute_link_bytes_per_cycle", &S::compute_link_bytes_per_cycle), 16,
                   sp.what + "bytes per cycle each port of the compute interconnect carries"));
  sp.add(choice(sp("weight_refill", &S::weight_refill), "uncharged", {"uncharged", "single", "double"},
                "a kernel larger than weight_buffer_bytes: uncharged streams it whole before the units start; "
                "single reloads the one buffer set part by part as the units use it; double splits the "
                "buffers into two sets and loads the next part while the units use the other "
                "(models/sparse_memory/README.md)"));
  sp.add(choice(sp("weight_compression", &S::weight_compression), "offline", {"offline", "on_chip"},
                "where the compiler has a sparse layer's weights compressed: offline writes them compressed "
                "into the trace's DRAM image once (seed001 ¶203-205: compressed and analysed outside the "
                "accelerator); on_chip adds a compress op before the layer, as for weights that change at "
                "run time"));
  sp.add(flag(sp("hand_off", &S::hand_off), true,
              "with a compute interconnect: a sparse layer whose only reader is the next sparse layer on the same "
              "core leaves its compressed output in the FM memory units and sends it over 920 to that layer's "
              "units, not through DRAM (seed001 ¶84), when one buffer set per unit holds it"));
}

// The compute units (seed001 Figs. 13-15) and their pipeline.
template <typename Keys>
void add_unit_keys(Keys& sp) {
  using S = SparseClusterConfig;
  sp.add(integer(sp("units", &S::units), 16, within(1, 256), "count",
                 "m: compute units, each with its feature-map memory unit; one sub-map each (seed001 ¶51, ¶76)"));
  sp.add(choice(sp("unit_kind", &S::unit_kind), "1500", {"1300", "1400", "1500"},
                "compute unit design (seed001 Figs. 13-15): 1300 one weight per round, 1400 several with the "
                "write-arbiter FIFO, 1500 several with the adder block and select unit"));
  sp.add(integer(sp("multipliers", &S::multipliers), 8, within(1, 256), "count",
                 "p: multipliers per compute unit, each fed one non-zero data value and one non-zero weight"));
  sp.add(integer(sp("max_weights_per_round", &S::max_weights_per_round), 2, within(0, 256), "count",
                 "units 1400/1500: unique weights one round may use (seed001 Fig. 19d cap; 0 = fill every "
                 "multiplier). Unit 1300 always uses 1"));
  sp.add(flag(sp("adder_merge", &S::adder_merge), true,
              "unit 1500: colliding products in neighbouring multipliers are summed by the adder block "
              "(¶178-184) instead of waiting in the FIFO (Fig. 20)"));
  sp.add(integer(sp("min_ports", &S::min_ports), 32, powers_of_two(2, 1024), "ports",
                 "Benes ports of each VAR read and write MIN; must cover (2k-1)^2 VAR locations of the largest "
                 "kernel run here and the p multipliers (32 covers k <= 3)"));
  sp.add(latency(sp("round_cycles", &S::round_cycles), 1,
                 sp.what + "cycles per multiplier round (seed001 ¶88 implies one per clock)"));
  sp.add(latency(sp("window_cycles", &S::window_cycles), 2,
                 sp.what + "cycles to load VAR from the accumulator buffer and write it back, per cell and output "
                           "channel"));
  sp.add(latency(sp("pipeline_latency", &S::pipeline_latency), 6,
                 sp.what + "multiplier -> MIN -> VAR -> back-end depth, paid once per instruction"));
  sp.add(integer(sp("pool_units", &S::pool_units), 4, within(1, 1024), "count",
                 sp.what + "b: pooling units in each compute unit's back end (seed001 ¶138), each reducing one "
                           "window of one channel per cycle after requantization and ReLU"));
}

// The DMA paths and the buffers they fill.
template <typename Keys>
void add_memory_keys(Keys& sp) {
  using S = SparseClusterConfig;
  sp.add(bandwidth(sp("dma_bytes_per_cycle", &S::dma_bytes_per_cycle), 16,
                   sp.what + "each DMA path: DRAM <-> one FM memory unit, DRAM -> the weight memory"));
  sp.add(integer(sp("request_bytes", &S::request_bytes), 64, within(1, 1 << 20), "bytes",
                 sp.what + "size of one DMA request"));
  sp.add(integer(sp("fm_buffer_bytes", &S::fm_buffer_bytes), 32768, within(64, 1ull << 32), "bytes",
                 sp.what + "one buffer set (value buffer + index buffer) of an FM memory unit; a sub-map larger "
                           "than one set is loaded in parts, the next part into the other set while the unit "
                           "computes"));
  sp.add(integer(sp("weight_buffer_bytes", &S::weight_buffer_bytes), 262144, within(64, 1ull << 32), "bytes",
                 sp.what + "weight memory (value + index buffers). The weights load whole before the units "
                           "start; a kernel larger than this counts weight_refills (parts beyond the first), "
                           "each reloaded while the units wait"));
  sp.add(integer(sp("compress_elements_per_cycle", &S::compress_elements_per_cycle), 64, within(1, 65536),
                 "elements", sp.what + "dense elements the compress op scans per cycle"));
}

// What the compiler sends to the cluster and how it partitions a map (seed001 §2.1-2.2).
template <typename Keys>
void add_partition_keys(Keys& sp) {
  using S = SparseClusterConfig;
  sp.add(number(sp("sparse_threshold", &S::sparse_threshold), 0.8, within(0, 1), "fraction",
                "zero fraction from which the compiler sends a layer to the sparse cluster (seed001 §2.1: 80 %)"));
  sp.add(choice(sp("sparsity_measure", &S::sparsity_measure), "ifm_zeros", {"ifm_zeros", "product_zeros"},
                "what sparse_threshold is compared with: the input map's zero fraction (seed001 §2.1), or "
                "the fraction of zero products, 1 - (1 - ifm zeros)(1 - weight zeros), which also counts "
                "pruned weights (assumption: the units skip both)"));
  sp.add(number(sp("balance_threshold", &S::balance_threshold), 0.03, within(0, 1), "fraction",
                "largest difference between neighbouring sub-maps the partition accepts (seed001 §2.2: 3 %)"));
  sp.add(choice(sp("balance_metric", &S::balance_metric), "nnz_count", {"nnz_count", "nnz_percent"},
                "what the partition evens out: each sub-map's non-zero count (relative to the mean) or its "
                "own non-zero percentage (seed001 Fig. 3)"));
  sp.add(choice(sp("partition", &S::partition), "balanced", {"balanced", "equal"},
                "balanced moves sub-map boundaries by sparsity (§2.2); equal keeps the first equal split"));
  sp.add(integer(sp("submaps_per_unit", &S::submaps_per_unit), 1, within(1, 64), "count",
                 "sub-maps the partition makes per compute unit; each FM memory unit holds its run of them "
                 "(seed001 ¶54: with overlaps the sub-map count may differ from the unit count)"));
}

std::vector<ConfigKey> sparse_keys() {
  using S = SparseClusterConfig;
  EngineSectionKeys<S> sp("sparse tensor cluster (seed001, assumption): ", 4, "instructions waiting to issue");
  add_unit_keys(sp);
  add_memory_keys(sp);
  add_partition_keys(sp);
  sp.add(choice(sp("memory_interconnect", &S::memory_interconnect), "static", {"static", "2x2", "benes"},
                "memory interconnect 525 (seed001 Fig. 5): static binds compute unit i to FM memory unit i "
                "(cluster 400); 2x2 also lets memory unit i feed compute unit i+1; benes lets any feed any. A "
                "compute unit whose own memory unit has no sub-map left takes one from a reachable unit"));
  sp.add(latency(sp("interconnect_stage_cycles", &S::interconnect_stage_cycles), 1,
                 sp.what + "cycles per switch stage of the memory interconnect (2x2: 1 stage; benes: "
                           "2 log2(units) - 1 stages), paid per buffer part sent through it"));
  add_link_keys(sp);
  sp.add(choice(sp("placement", &S::placement), "verdict", {"verdict", "auto-cost", "auto-cost-energy"},
                "how the compiler picks a conv or fc layer's engine: verdict = the scheduling engine's (sparse "
                "from sparse_threshold on, seed001 §2.1); auto-cost = the engine whose mapping predicts fewer "
                "cycles for the layer; auto-cost-energy = the one whose predicted counters, priced by the "
                "energy table, cost less dynamic energy (docs/sparse-placement.md); a layer's own 'engine' "
                "still wins"));
  sp.add(choice(sp("iso_area", &S::iso_area), "none", {"none", "units", "multipliers"},
                "size the cluster to the area of its core's Wfold matrix unit, from the energy table's areas "
                "(docs/sparse-iso-area.md): the largest units (or multipliers per unit, min_ports raised to "
                "cover them) whose cluster area does not exceed it; that key's written value is replaced"));
  return sp.keys;
}

void check_sparse(const CoreConfig& core, const SectionPlace& place) {
  if (!core.has_engine(SparseClusterConfig::kSection)) return;
  const auto& s = core.block<SparseClusterConfig>(SparseClusterConfig::kSection);
  if (s.memory_interconnect == MemoryInterconnectKind::Benes && (s.units & (s.units - 1)) != 0)
    place.fail("memory_interconnect", fmt::format("a Benes network needs a power-of-two port count, and there are {} "
                                                  "units; use 2x2 or static, or a power-of-two units",
                                                  s.units));
  if (const std::string why = ComputeInterconnect::misfit(s.compute_interconnect, s.units); !why.empty())
    place.fail("compute_interconnect", why);
  if (s.multipliers > s.min_ports)
    place.fail("min_ports", fmt::format("{} ports cannot serve {} multipliers: the MIN needs a port per multiplier",
                                        s.min_ports, s.multipliers));
}

}  // namespace

CoreSection sparse_cluster_config_section() {
  return {SparseClusterConfig::kSection, "sparse", SparseClusterConfig{}, sparse_keys(), check_sparse,
          size_to_matrix_area};
}

double sparse_peak_macs_per_cycle(const SparseClusterConfig& cfg) {
  return double(cfg.units) * cfg.multipliers / double(cfg.round_cycles ? cfg.round_cycles : 1);
}

}  // namespace npusim
