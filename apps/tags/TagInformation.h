#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/tensor/DType.h"

namespace npusim {

// Tag information of seed002 §2: what the compiler knows about one tensor ("first
// data"). The static tag does not depend on the chip; the dynamic tag does, and its
// last three fields (split index, target storage, exchange level) come from the
// split-strategy database (apps/tags/SplitStrategy.h). Printed and parsed in the
// seed's text form:
//   static:in,float32,dim_nc,{1 1024}dynamic:float16,dim_nc,c=256,c=0,2kb,c[(0,255),(256,511)],mem,no

// §2.1, ¶145-149. Codes: the seed shows in, iw, on; the others are ours.
enum class DataCategory {
  Instruction,     // ins
  InputNeuron,     // in
  OutputNeuron,    // on
  HiddenNeuron,    // hn
  ConstantNeuron,  // cn
  InputWeight,     // iw
  OutputWeight,    // ow
  ConstantWeight,  // cw
  Auxiliary,       // aux
};
const char* category_code(DataCategory c);
std::optional<DataCategory> parse_category(const std::string& code);

// What a tensor is, besides its place in the graph: the degree rule of ¶149 alone
// cannot tell an input neuron from an input weight.
enum class DataRole { Neuron, Weight, Constant, Auxiliary };
// ¶146-149 (Table 1 is lost): in and out degree 0 -> instruction; in 0 -> an input
// (neuron, weight, constant or auxiliary by role); out 0 -> an output; else hidden.
// ¶149's "out-degree > 1" for inputs is read as >= 1 (seed002 §6.4 item 8).
DataCategory category_from_degree(std::uint32_t out_degree, std::uint32_t in_degree, DataRole role);

// "c=256": a length along one dimension (tiling, padding).
struct DimValue {
  char dim = 'c';
  std::uint64_t value = 0;
  bool operator==(const DimValue& o) const { return dim == o.dim && value == o.value; }
};

struct StaticTag {
  DataCategory category = DataCategory::InputNeuron;
  DType dtype = DType::Float32;
  std::string order;                  // dimension letters, highest first: "nc", "nhwc"
  std::vector<std::uint64_t> values;  // one per letter of `order`
  bool operator==(const StaticTag& o) const {
    return category == o.category && dtype == o.dtype && order == o.order && values == o.values;
  }
};

// §2.2: the target split dimension and each piece's inclusive [start, end] along it.
struct SplitIndex {
  char dim = 'c';
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces;
  bool operator==(const SplitIndex& o) const { return dim == o.dim && pieces == o.pieces; }
};

// §3.4: a class of storage spaces ("mem": memories, "cluster": off-core caches), the
// pieces going to its spaces in turn, or one instance ("mem1", "cluster2", numbered from 1).
struct StorageId {
  enum class Level { Memory, ClusterCache } level = Level::Memory;
  std::uint32_t instance = 0;  // 0 = the class
  bool operator==(const StorageId& o) const { return level == o.level && instance == o.instance; }
};

// §2.2 / ¶72, ¶207: who else uses the pieces. Codes no, core, cluster from Table 2's
// legend; inter-memory has no code in the text, ours is "mem". §3.9's hybrid mode
// exchanges a tensor at two levels ("inter-core + inter-cluster"): ours is "core+cluster".
enum class ExchangeLevel { None, Core, Cluster, Memory, CoreAndCluster };
const char* exchange_code(ExchangeLevel e);

struct DynamicTag {
  DType dtype = DType::Float16;
  std::string order;
  std::vector<DimValue> tiling;   // at least one entry; several print joined by ';'
  std::vector<DimValue> padding;  // pad lengths (value 0 pads); c=0 = none
  std::uint64_t size_bytes = 0;   // after reorder, tiling and padding (¶97)
  std::optional<SplitIndex> split;
  std::optional<StorageId> store;
  std::optional<ExchangeLevel> swap;
  bool operator==(const DynamicTag& o) const {
    return dtype == o.dtype && order == o.order && tiling == o.tiling && padding == o.padding &&
           size_bytes == o.size_bytes && split == o.split && store == o.store && swap == o.swap;
  }
};

struct TagInformation {
  StaticTag fixed;     // "static" is a keyword
  DynamicTag dynamic;
  bool operator==(const TagInformation& o) const { return fixed == o.fixed && dynamic == o.dynamic; }
};

// Sizes print as "2kb" when a whole number of KiB, else "8b"; parsing also takes
// "mb" and the seed's "字节" (bytes).
std::string size_text(std::uint64_t bytes);
std::string to_string(const SplitIndex& s);
std::string to_string(const StorageId& s);
std::string to_string(const StaticTag& t);
std::string to_string(const DynamicTag& t);
std::string to_string(const TagInformation& t);
// Throws InputError (location "tag", the reason naming the field) on malformed text.
TagInformation parse_tag_information(const std::string& text);

}  // namespace npusim
