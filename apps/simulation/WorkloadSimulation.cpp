#include "apps/simulation/WorkloadSimulation.h"

#include <algorithm>
#include <ostream>

#include "apps/simulation/layer_report/LayerEnergy.h"
#include "apps/simulation/layer_report/LayerReport.h"
#include "apps/simulation/PacketLayout.h"
#include "apps/compiler/TraceEmitter.h"
#include "apps/frontend/WorkloadReader.h"
#include "sim/report/ReportContext.h"

namespace npusim {

RunStats simulate_workload(SimulationRequest request, const Workload& workload, const SplitOptions& split) {
  TraceEmitter emitter(workload, request.hardware, split);
  LayerReport layers(emitter, request.hardware);

  std::ostream* summary = request.summary;
  request.source = &emitter;
  request.source_header = &emitter.header();
  // The bar counts layers: counting the instructions up front would compile the workload twice.
  request.progress_total = emitter.layers().size();
  request.progress_unit = "layers";
  request.progress_done = [&emitter](std::uint64_t dispatched) { return emitter.layer_of(dispatched - 1); };
  request.on_record = [&layers](const InstructionRecord& r) { layers.record(r); };
  request.energy_group = [&emitter](const Instruction& inst) { return emitter.layer_of(inst.id); };
  request.layer_of = [&emitter](std::uint64_t id) { return emitter.layers()[emitter.layer_of(id)].layer.name; };
  // The caller's extras (a calibration) first, then the workload's.
  request.annotate = [&layers, &workload, &emitter, &request, outer = request.annotate](const RunStats& stats,
                                                                                        ReportContext& ctx) {
    if (outer) outer(stats, ctx);
    nlohmann::json rows = layers.to_json(request.rows.per_layer());
    rows["constant_packets"] = packets_json(constant_packets(emitter, request.hardware.chip.cores()));
    rows["name"] = workload.name;
    rows["batch"] = workload.batch;
    rows["file"] = file_name_only(workload.file);
    if (emitter.reuses_dram()) rows["dram_reused"] = true;
    ctx.extra["workload"] = std::move(rows);  // a 7B decode's rows and packets: megabytes of JSON
    if (!stats.energy.priced) return;
    nlohmann::json& energy = ctx.extra["energy"];
    if (request.rows.per_layer()) energy["layers"] = layer_energy_json(layers.rows(), stats.energy);
    energy["inferences"] = workload.batch;
    energy["pj_per_inference"] = stats.energy.total().total_pj() / double(std::max<std::uint32_t>(1, workload.batch));
  };
  if (summary && emitter.reuses_dram())
    *summary << "note: " << workload.file << ": a DRAM region per tensor does not fit the chip, so dead tensors' "
             << "regions hold later ones; a functional run writes only the network's outputs to tensors/\n";
  RunStats stats = simulate_trace(request);
  if (summary && request.rows.per_layer()) layers.print_table(*summary, stats);
  return stats;
}

}  // namespace npusim
