// What a conv or fc layer on a chip with a sparse cluster adds to its report row: the
// scheduling engine's verdict and, when it ran there, the products formed against the
// dense MACs.
#include "apps/compiler/lower_sparse/SparseLowering.h"

#include <nlohmann/json.hpp>

#include "apps/compiler/tiling/LayerTiler.h"
#include "sim/report/RunStats.h"

namespace npusim {

// The cluster's compressions and convolutions move DRAM bytes the compiler does not
// count; its convolutions' MACs are the non-zero products it really formed.
void SparseLowering::record(const InstructionRecord& r, bool in_reduction, Counters& c) const {
  const bool conv = r.op == "sparse_conv" || r.op == "sparse_conv_compressed";
  if (r.op == "compress" || conv) c.dram_bytes += r.bytes;
  if (conv) c.counts["sparse_products"] += r.macs;
  if (r.op == "sparse_conv_compressed") c.counts["sparse_compressed_outputs"] += 1;
}

void SparseLowering::report(const Layer& l, const LayerTiling& t, const Counters& c, nlohmann::json& row) const {
  const SparseLayerPlan* plan = t.engine_plan<SparseLayerPlan>(name());
  if (!plan) return;
  const SparseVerdict& v = plan->verdict;
  nlohmann::json j = {{"verdict", v.sparse ? "sparse" : "dense"}, {"measured_zeros", v.zeros}, {"reason", v.reason}};
  if (t.engine == name()) {
    const std::uint64_t products = c.of("sparse_products"), macs = row.at("macs").get<std::uint64_t>();
    j["useful_macs"] = products;
    j["useful_fraction"] = macs ? double(products) / double(macs) : 0.0;
    // Handed to the next sparse layers compressed (compression blocks 1375/1475/1595), or dense.
    j["output"] = c.of("sparse_compressed_outputs") ? "compressed" : "dense";
  }
  row[name()] = j;
}

}  // namespace npusim
