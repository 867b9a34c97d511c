#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/matrix_unit/ConvShape.h"
#include "models/vector_unit/VectorKernels.h"
#include "sim/trace/OpCatalog.h"

namespace npusim {

// What a timing-only run assumes about data it cannot see (params.assumed_sparsity):
// zero fractions and the seed of their positions (sim/tensor/SparseMask.h); `ofm` is the
// output's, which sizes what the compression blocks store.
struct AssumedSparsity {
  double ifm = 0, weights = 0, ofm = 0;
  std::uint64_t seed = 1;
};
std::optional<OpProblem> read_assumed_sparsity(const nlohmann::json& params, const char* key, AssumedSparsity& out);

// The back end's pooling window over a conv's [ho, wo, co] output (params.pool, checked by
// the op: {"max": bool, "kernel": [kh, kw], "stride", "padding"}), or none.
std::optional<ChannelWindow> back_end_pool(const nlohmann::json& params, const ConvShape& g);

// compress (dense -> values + indices), sparse_conv and sparse_conv_compressed, run by the sparse cluster.
std::vector<OpSpec> sparse_cluster_ops();

}  // namespace npusim
