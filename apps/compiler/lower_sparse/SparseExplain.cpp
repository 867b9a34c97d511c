// `npusim explain` on the sparse tensor cluster (seed001): the scheduling engine's verdict
// claims a layer it calls sparse, and heads every other engine's explanation.
#include "apps/compiler/lower_sparse/SparseLowering.h"

#include "models/sparse_cluster/Explain.h"

namespace npusim {

std::string SparseLowering::explain_help() const { return "the sparse tensor cluster, seed001"; }
std::string SparseLowering::explain_target() const { return "the sparse tensor cluster"; }
std::string SparseLowering::explain(const ExplainRequest& q) const {
  return explain_sparse_layer(q.hw, q.layer, q.zeros);
}
bool SparseLowering::explain_claims(const ExplainRequest& q) const { return sparse_verdict(q.hw, q.layer, q.zeros); }
std::string SparseLowering::explain_preamble(const ExplainRequest& q) const {
  return sparse_verdict_line(q.hw, q.layer, q.zeros);
}

}  // namespace npusim
