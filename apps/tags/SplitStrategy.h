#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "apps/tags/TagGeneration.h"
#include "apps/tags/TagInformation.h"

namespace npusim {

// How the cores of a layer share it (seed002 ¶55):
//   data      different cores take different images or output rows; every core reads all weights;
//   model_co  different cores take different output channels (weights split along their n = co);
//   model_ci  different cores take different input channels (the reduction dimension) and
//             their int32 partial sums are reduced between cores before requantization;
//   hybrid_co, hybrid_ci  the hybrid mode of ¶55 / §3.9: model parallel inside each cluster
//             (model-co or model-ci over its cores, a model-ci reduction staying in the
//             cluster) and data parallel between clusters (each cluster its run of bands).
enum class ParallelMode { Data, ModelCo, ModelCi, HybridCo, HybridCi };
// "data", "model-co", "model-ci", "hybrid-co", "hybrid-ci"
const char* parallel_mode_name(ParallelMode m);
std::optional<ParallelMode> parse_parallel_mode(const std::string& name);
const std::vector<ParallelMode>& parallel_modes();  // every mode, in the order above
// The tensor whose split index decides whether a mode applies: the input neuron for
// data and the ci modes, the input weight for the co modes.
DataCategory driving_category(ParallelMode m);
// Whether a core's share is output channels (model-co, hybrid-co) or input channels
// (model-ci, hybrid-ci), and whether the mode deals bands to clusters (hybrid).
bool splits_co(ParallelMode m);
bool splits_ci(ParallelMode m);
bool is_hybrid(ParallelMode m);
// Model-co or model-ci over every core of the layer (no bands dealt).
bool is_pure_model(ParallelMode m);

// One entry of a tensor's splittable list: a dimension letter with its candidate
// storage and exchange level, or `whole`: the tensor is not cut (shared by every core,
// or for a reduced output produced whole from partial results, ¶136).
struct StrategyDim {
  char dim = 'c';
  bool whole = false;
  StorageId store;
  ExchangeLevel swap = ExchangeLevel::None;
};

// One parallel mode of an operator: for each tensor category (in, iw, on) its
// splittable dimensions in priority order (§3.2 step 3).
struct ModeStrategy {
  ParallelMode mode = ParallelMode::Data;
  std::map<DataCategory, std::vector<StrategyDim>> tensors;
  const std::vector<StrategyDim>* of(DataCategory c) const;
};

// The split-strategy database of one chip family (§3.6; Table 2 is lost, so the
// content is ours: configs/split-strategies/README.md). Per operator (conv, fc,
// depthwise, pool, add, relu) the modes in priority order.
struct SplitStrategyDatabase {
  std::string family;
  std::string file;
  Rounding rounding = Rounding::Ceil;
  std::map<std::string, std::vector<ModeStrategy>> operators;

  const std::vector<ModeStrategy>& modes(const std::string& op) const;  // empty when the operator is absent
  const ModeStrategy* mode(const std::string& op, ParallelMode m) const;
};

// S15-S16 for one tensor: the split index by the §3.3 rule over the entries of its
// category (a list of only `whole` entries gives one piece over that dimension, ¶136),
// and the storage and exchange level of the chosen entry, added to `partial`.
DynamicTag complete_tag(const StaticTag& s, DynamicTag partial, const std::vector<StrategyDim>& dims,
                        std::uint32_t channels, std::uint32_t cores, Rounding rounding);

// Reads and checks a database file; any problem is an InputError naming the file,
// the JSON place and the reason.
SplitStrategyDatabase load_split_strategies(const std::string& path);
// The database shipped for a chip: configs/split-strategies/shared-cache.json when its
// clusters have off-core caches (seed002 multi-core processor 1), else
// bus-contention.json (processor 2).
std::string shipped_split_strategy_file(bool cluster_caches);

}  // namespace npusim
