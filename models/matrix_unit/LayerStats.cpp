#include "models/matrix_unit/LayerStats.h"

#include <algorithm>
#include <vector>

namespace npusim {

void LayerStats::add(const WfoldPlan& plan, Cycles cycles, std::uint64_t bank_conflicts) {
  Layer& layer = layers_[&plan];
  if (layer.instructions == 0) {
    layer.plan = &plan;
    layer.order = layers_.size();
  }
  layer.instructions += 1;
  layer.cycles += cycles;
  layer.bank_conflicts += bank_conflicts;
}

namespace {
double ratio(double part, double whole) { return whole > 0 ? part / whole : 0.0; }
}  // namespace

nlohmann::json LayerStats::rows(std::uint32_t core, const MatrixUnitConfig& cfg) const {
  std::vector<const Layer*> ordered;
  for (const auto& entry : layers_) ordered.push_back(&entry.second);
  std::sort(ordered.begin(), ordered.end(), [](const Layer* a, const Layer* b) { return a->order < b->order; });
  nlohmann::json rows = nlohmann::json::array();
  for (const Layer* layer : ordered) {
    const WfoldPlan& p = *layer->plan;
    const double n = double(layer->instructions), cycles = double(layer->cycles);
    const double peak_macs = double(p.ns) * p.ncu * p.lanes;
    nlohmann::json row;
    row["core"] = core;
    row["layer"] = p.layer.to_string();
    row["result_path"] = p.requantized ? "requantized" : "accumulators";
    row["instructions"] = layer->instructions;
    row["cycles"] = layer->cycles;
    row["estimated_cycles"] = p.cycles.total * layer->instructions;
    row["useful_macs"] = p.macs.useful * layer->instructions;
    row["issued_macs"] = p.macs.issued * layer->instructions;
    row["padding_macs"] = {{"pci", p.macs.pci_padding * layer->instructions},
                           {"co_alignment", p.macs.co_alignment * layer->instructions},
                           {"wo_alignment", p.macs.wo_alignment * layer->instructions},
                           {"stride_fold", p.macs.stride_fold * layer->instructions}};
    row["mac_utilization"] = ratio(n * double(p.macs.useful), cycles * peak_macs);
    row["broadcast_bytes"] = p.broadcast_bytes * layer->instructions;
    row["distribution_bytes"] = p.distribution_bytes * layer->instructions;
    row["broadcast_bus_utilization"] =
        ratio(n * double(p.broadcast_bytes), cycles * cfg.broadcast_bus.bytes_per_cycle);
    row["distribution_bus_utilization"] =
        ratio(n * double(p.distribution_bytes), cycles * cfg.distribution_bus.bytes_per_cycle * p.ns);
    // The §3.4 / §3.7 requests (issue 33): NRAM reads of the data rows, rows served by the relay,
    // write-back requests, and NRAM bank conflicts of the unit's bookings (0 unbanked).
    row["requests"] = {{"data_row_read", data_row_read_name(p.reads.mode)},
                       {"nram_reads", p.read_requests * layer->instructions},
                       {"relay_hits", p.relay_rows * layer->instructions},
                       {"write_backs", p.write_requests * layer->instructions},
                       {"bank_conflicts", layer->bank_conflicts}};
    row["mapping"] = {{"pci_bytes", p.pci.bytes}, {"ws", p.ws},   {"bci", p.bci},
                      {"aco", p.aco},             {"kmax", p.kmax}, {"ncycle", p.ncycle}};
    row["reuse"] = {{"input_in_slave", p.input_reuse_in_slave},
                    {"input_across_slaves", p.input_reuse_across_slaves},
                    {"weight_across_cus", p.weight_reuse_across_cus},
                    {"weight_in_cu", p.weight_reuse_in_cu},
                    {"weight_in_slave", p.weight_reuse_in_slave}};
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace npusim
