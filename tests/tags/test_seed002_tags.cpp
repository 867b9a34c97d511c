// The worked examples of seed002 (§6.3 golden cases 1-5 and 8-12): the target split
// dimension, the split index, preprocessing, data sizes, placement, tag strings,
// constant packing, data categories, the exchange-level table and the routing hops.
#include <catch2/catch.hpp>

#include <cstring>

#include "apps/tags/ConstantPacket.h"
#include "apps/tags/Preprocessing.h"
#include "apps/tags/SplitStrategy.h"
#include "apps/tags/TagGeneration.h"
#include "apps/tags/TagInformation.h"
#include "models/interconnect/Interconnect.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"
#include "sim/tensor/Half.h"
#include "TestPaths.h"

using namespace npusim;

namespace {

SplittableDim dim(char letter, std::uint64_t value) { return {letter, value, {}, ExchangeLevel::None}; }

void check_rule(const SplitDecision& d, char target, int mode, std::size_t pieces, std::uint64_t length) {
  CHECK(d.dim == target);
  CHECK(d.mode == mode);
  CHECK(d.index.pieces.size() == pieces);
  CHECK(d.length == length);
}

// The tags of Example 1 before generation (¶212-214), with the size convention of
// apps/tags/README.md: bytes after padding.
const char* kI = "static:in,float32,dim_nc,{1 1024}dynamic:float16,dim_nc,c=256,c=0,2kb";
const char* kW = "static:iw,float32,dim_cn,{1000 4}dynamic:float16,dim_nc,c=512,c=24,8kb";
const char* kO = "static:on,float32,dim_nc,{1 4}dynamic:float16,dim_nc,c=4,c=0,8b";

// Multi-core processor 1 (Fig. 5): C = 2 memories, P = 4 cores.
constexpr std::uint32_t kChannels = 2, kCores = 4;

std::string generated(const char* partial, ParallelMode mode, DataCategory category, const std::string& family) {
  const auto db = load_split_strategies(shipped_split_strategy_file(family == "shared-cache"));
  const TagInformation t = parse_tag_information(partial);
  const ModeStrategy* m = db.mode("fc", mode);
  REQUIRE(m);
  REQUIRE(m->of(category));
  return to_string(TagInformation{t.fixed, complete_tag(t.fixed, t.dynamic, *m->of(category), kChannels, kCores, db.rounding)});
}

}  // namespace

TEST_CASE("seed002 ¶172: w1 fails the split condition, w3 meets it", "[seed002][tags]") {
  const auto d = decide_split({dim('a', 2), dim('c', 64)}, 4, 4);  // w1 = a, w3 = c; w2 = 32 is not splittable
  CHECK(d.dim == 'c');
  CHECK_FALSE(d.fallback);
}

TEST_CASE("seed002 ¶175: b = 4 = P gives Mode 1, four pieces of length 1", "[seed002][tags]") {
  check_rule(decide_split({dim('a', 1), dim('b', 4)}, 2, 4), 'b', 1, 4, 1);
}

TEST_CASE("seed002 ¶176: c = 2 = C < P gives Mode 2, two pieces of length 1", "[seed002][tags]") {
  check_rule(decide_split({dim('a', 1), dim('c', 2)}, 2, 4), 'c', 2, 2, 1);
}

TEST_CASE("seed002 ¶177: no dimension meets C = 4, the larger c is taken, Mode 3, two pieces of 1", "[seed002][tags]") {
  const auto d = decide_split({dim('a', 1), dim('c', 2)}, 4, 4);
  CHECK(d.fallback);
  check_rule(d, 'c', 3, 2, 1);  // length 1: the text's "length 2" is a slip (seed002 §6.4 item 3)
  CHECK(to_string(d.index) == "c[(0,0),(1,1)]");
}

TEST_CASE("seed002 §3.3: remainders follow the rounding function", "[seed002][tags]") {
  CHECK(to_string(decide_split({dim('h', 10)}, 2, 4, Rounding::Ceil).index) == "h[(0,2),(3,5),(6,8),(9,9)]");
  CHECK(to_string(decide_split({dim('h', 10)}, 2, 4, Rounding::Floor).index) == "h[(0,1),(2,3),(4,5),(6,9)]");
  CHECK(to_string(decide_split({dim('h', 10)}, 2, 4, Rounding::Round).index) == "h[(0,2),(3,5),(6,8),(9,9)]");
  CHECK(to_string(decide_split({dim('h', 5)}, 2, 4, Rounding::Ceil).index) == "h[(0,1),(2,3),(4,4)]");  // 4th piece dropped
}

TEST_CASE("seed002 Example 1: the split index of I is c[(0,255),...,(768,1023)], mem, no (256, not 512)",
          "[seed002][tags]") {
  CHECK(generated(kI, ParallelMode::ModelCi, DataCategory::InputNeuron, "shared-cache") ==
        "static:in,float32,dim_nc,{1 1024}dynamic:float16,dim_nc,c=256,c=0,2kb,"
        "c[(0,255),(256,511),(512,767),(768,1023)],mem,no");
}

TEST_CASE("seed002 Example 1: the generated tags of W and O (processor 1) and of O (processor 2)", "[seed002][tags]") {
  // W splits along its padded c = 1024 (the text's "n" is a slip, seed002 §6.4 item 5).
  CHECK(generated(kW, ParallelMode::ModelCi, DataCategory::InputWeight, "shared-cache") ==
        "static:iw,float32,dim_cn,{1000 4}dynamic:float16,dim_nc,c=512,c=24,8kb,"
        "c[(0,255),(256,511),(512,767),(768,1023)],mem,no");
  CHECK(generated(kO, ParallelMode::ModelCi, DataCategory::OutputNeuron, "shared-cache") ==
        "static:on,float32,dim_nc,{1 4}dynamic:float16,dim_nc,c=4,c=0,8b,c[(0,3)],cluster,core");
  CHECK(generated(kO, ParallelMode::ModelCi, DataCategory::OutputNeuron, "bus-contention") ==
        "static:on,float32,dim_nc,{1 4}dynamic:float16,dim_nc,c=4,c=0,8b,c[(0,3)],mem,cluster");
}

TEST_CASE("seed002 tag strings round-trip, and the seed's own spellings parse", "[seed002][tags]") {
  for (const char* text :
       {"static:in,float32,dim_nc,{1 1024}dynamic:float16,dim_nc,c=256,c=0,2kb,c[(0,255),(256,511),(512,767),(768,1023)],mem,no",
        "static:on,float32,dim_nc,{1 4}dynamic:float16,dim_nc,c=4,c=0,8b,c[(0,3)],cluster,core",
        "static:on,float32,dim_nc,{1 4}dynamic:float16,dim_nc,c=4,c=0,8b,c[(0,3)],mem,cluster",
        "static:hn,int8,dim_nhwc,{2 56 56 64}dynamic:int8,dim_nhwc,c=64,c=0,392kb,h[(0,13),(14,27)],mem2,mem",
        "static:iw,int8,dim_nhwc,{64 3 3 3}dynamic:int8,dim_nhwc,c=8;w=2,c=5,1728b"}) {
    INFO(text);
    const TagInformation t = parse_tag_information(text);
    CHECK(to_string(t) == text);
    CHECK(parse_tag_information(to_string(t)) == t);
  }
  // The text's W: the unpadded size in 字节 (bytes) and the split printed along n.
  const TagInformation w = parse_tag_information(
      "static:iw,float32,dim_cn,{1000 4}dynamic:float16,dim_nc,c=512,c=24,8000字节,"
      "n[(0,255),(256,511),(512,767),(768,1023)],mem,no");
  CHECK(w.dynamic.size_bytes == 8000);
  CHECK(w.fixed.values == std::vector<std::uint64_t>{1000, 4});
  CHECK(w.dynamic.padding == std::vector<DimValue>{{'c', 24}});
  CHECK(parse_tag_information(kO).dynamic.size_bytes == 8);
  CHECK(parse_tag_information("static:on,float32,dim_nc,{1 4}dynamic:float16,dim_nc,c=4,c=0,8kb").dynamic.size_bytes ==
        8192);
  for (const char* broken : {"static:in,float32,dim_nc,{1}dynamic:float16,dim_nc,c=1,c=0,2b",
                             "static:xx,float32,dim_nc,{1 2}dynamic:float16,dim_nc,c=1,c=0,2b",
                             "static:in,float32,dim_nc,{1 2}dynamic:float16,dim_nc,c=1,c=0,2b,c[(3,1)],mem,no",
                             "static:in,float32,dim_nc,{1 2}dynamic:float16,dim_nc,c=1,c=0,2b,c[(0,1)],disk,no",
                             "static:in,float32,dim_nc,{1 2}dynamic:float16,dim_nc,c=1,c=0,2b,c[(0,1)],mem,far",
                             "in,float32,dim_nc,{1 2}"}) {
    INFO(broken);
    CHECK_THROWS_AS(parse_tag_information(broken), InputError);
  }
}

TEST_CASE("seed002 §3.7: W is cast to fp16, transposed to nc and padded to 4 x 1024 with 24 zero columns",
          "[seed002][tags]") {
  const TagInformation tag = parse_tag_information(kW);
  HostTensor w{DType::Float32, "cn", {1000, 4}, std::vector<std::uint8_t>(1000 * 4 * 4)};
  std::vector<float> values(4000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(int(i % 97) - 48) / 7.0f + 0.001f * float(i);
  std::memcpy(w.bytes.data(), values.data(), w.bytes.size());
  CHECK_FALSE(matches_dynamic_tag(w, tag.fixed, tag.dynamic));
  const HostTensor p = preprocess(w, tag.dynamic);
  CHECK(matches_dynamic_tag(p, tag.fixed, tag.dynamic));
  REQUIRE(p.values == std::vector<std::uint64_t>{4, 1024});
  REQUIRE(p.bytes.size() == 4 * 1024 * 2);
  CHECK(p.bytes.size() == tag.dynamic.size_bytes);
  for (std::uint64_t n = 0; n < 4; ++n)
    for (std::uint64_t c = 0; c < 1024; ++c) {
      std::uint16_t h;
      std::memcpy(&h, p.bytes.data() + 2 * (n * 1024 + c), 2);
      if (c >= 1000) {
        CHECK(h == 0);
      } else if (h != float_to_half(values[c * 4 + n])) {
        FAIL("W[" << n << "][" << c << "] is not the fp16 of the source value");
      }
    }
  // A padding that does not fill the last tile is refused.
  DynamicTag wrong = tag.dynamic;
  wrong.padding = {{'c', 20}};
  CHECK_THROWS_AS(preprocess(w, wrong), InputError);
}

TEST_CASE("seed002 §3.1 S12: the pieces of I are its 256-wide slices", "[seed002][tags]") {
  HostTensor x{DType::Float16, "nc", {1, 1024}, std::vector<std::uint8_t>(2048)};
  for (std::size_t i = 0; i < x.bytes.size(); ++i) x.bytes[i] = std::uint8_t(i * 7 + 3);
  const SplitIndex index = decide_split({dim('n', 1), dim('c', 1024)}, kChannels, kCores).index;
  for (std::size_t k = 0; k < 4; ++k) {
    const HostTensor piece = split_piece(x, index, k);
    CHECK(piece.values == std::vector<std::uint64_t>{1, 256});
    CHECK(std::vector<std::uint8_t>(x.bytes.begin() + 512 * k, x.bytes.begin() + 512 * (k + 1)) == piece.bytes);
  }
}

TEST_CASE("seed002 ¶94/¶97: data sizes", "[seed002][tags]") {
  CHECK(data_size({4, 8}, 4) == 128);
  for (const char* text : {kI, kW, kO}) {
    const TagInformation t = parse_tag_information(text);
    INFO(text);
    CHECK(data_size(operational_values(t.fixed, t.dynamic), dtype_size(t.dynamic.dtype)) == t.dynamic.size_bytes);
  }
  CHECK(parse_tag_information(kI).dynamic.size_bytes == 2048);
  CHECK(parse_tag_information(kW).dynamic.size_bytes == 8192);  // after padding (the text's 8000 is before)
  CHECK(parse_tag_information(kO).dynamic.size_bytes == 8);     // the text's "8kb" is a slip
}

TEST_CASE("seed002 Example 1: I1, I2, W1, W2 go to memory 1 and I3, I4, W3, W4 to memory 2", "[seed002][tags]") {
  const StorageId mem{StorageId::Level::Memory, 0};
  for (std::size_t k = 0; k < 4; ++k) CHECK(storage_instance(mem, k, 4, kChannels) == (k < 2 ? 1u : 2u));
  CHECK(storage_instance({StorageId::Level::Memory, 2}, 0, 4, kChannels) == 2);
  CHECK(storage_instance(mem, 3, 4, 4) == 4);
}

TEST_CASE("seed002 §3.10: constant packets, offsets and totals of Fig. 3", "[seed002][tags]") {
  std::vector<ConstantBlock> constants = {{"instruction 1", 0, 2048}, {"instruction 2", 1, 2048}};
  for (const auto& b : split_constant("filter", SplitIndex{'n', {{0, 7}, {8, 15}}}, 128)) constants.push_back(b);
  const auto packets = pack_constants(2, constants);
  REQUIRE(packets.size() == 2);  // one per core
  const auto& p1 = packets[0].constants;
  REQUIRE(p1.entries.size() == 2);
  CHECK(p1.entries[0].name == "instruction 1");
  CHECK(p1.entries[0].offset == 0);
  CHECK(p1.entries[1].name == "filter block 1");
  CHECK(p1.entries[1].bytes == 1024);
  CHECK(p1.entries[1].offset == 2048);
  CHECK(p1.total == 3072);
  CHECK(packets[1].constants.entries[1].name == "filter block 2");
  PacketSegment addresses;
  addresses.add("input address 1", 8);
  addresses.add("output address 1", 8);
  CHECK(addresses.entries[0].offset == 0);
  CHECK(addresses.entries[1].offset == 8);
  CHECK(addresses.total == 16);
}

TEST_CASE("seed002 ¶146-149: data categories from in- and out-degree", "[seed002][tags]") {
  CHECK(category_from_degree(3, 1, DataRole::Neuron) == DataCategory::HiddenNeuron);  // cc
  CHECK(category_from_degree(0, 1, DataRole::Neuron) == DataCategory::OutputNeuron);
  CHECK(category_from_degree(0, 2, DataRole::Weight) == DataCategory::OutputWeight);
  CHECK(category_from_degree(0, 0, DataRole::Neuron) == DataCategory::Instruction);
  CHECK(category_from_degree(1, 0, DataRole::Neuron) == DataCategory::InputNeuron);
  CHECK(category_from_degree(1, 0, DataRole::Weight) == DataCategory::InputWeight);
  CHECK(std::string(category_code(DataCategory::InputWeight)) == "iw");
}

TEST_CASE("seed002 §3.9: the shipped databases exchange what the table says", "[seed002][tags]") {
  const auto bus = load_split_strategies(shipped_split_strategy_file(false));
  const auto cache = load_split_strategies(shipped_split_strategy_file(true));
  // MLP, data parallel: weights are exchanged inter-memory (bus contention), inter-cluster (shared cache).
  CHECK(bus.mode("fc", ParallelMode::Data)->of(DataCategory::InputWeight)->front().swap == ExchangeLevel::Memory);
  CHECK(cache.mode("fc", ParallelMode::Data)->of(DataCategory::InputWeight)->front().swap == ExchangeLevel::Cluster);
  // MLP, model parallel: outputs are exchanged inter-cluster on bus contention; input and weight are not.
  const ModeStrategy* model = bus.mode("fc", ParallelMode::ModelCi);
  CHECK(model->of(DataCategory::OutputNeuron)->front().swap == ExchangeLevel::Cluster);
  CHECK(model->of(DataCategory::InputNeuron)->front().swap == ExchangeLevel::None);
  CHECK(model->of(DataCategory::InputWeight)->front().swap == ExchangeLevel::None);
  CHECK(cache.mode("fc", ParallelMode::ModelCi)->of(DataCategory::OutputNeuron)->front().swap == ExchangeLevel::Core);
}

TEST_CASE("seed002 §1.2.1: SMP reaches every memory in 2 hops, NUMA local in 1, remote in 2 or more", "[seed002][tags]") {
  const HardwareConfig smp = load_hardware_config(std::string(NPUSIM_SOURCE_DIR) + "/configs/smp-2x2.json");
  const HardwareConfig numa = load_hardware_config(std::string(NPUSIM_SOURCE_DIR) + "/configs/numa-2x2.json");
  for (std::uint32_t cluster = 0; cluster < 2; ++cluster)
    for (std::uint32_t channel = 0; channel < 2; ++channel) {
      CHECK(routing_hops(smp.chip, cluster, channel) == 2);
      const bool local = home_cluster(numa.chip, channel) == cluster;
      CHECK(local == (channel == cluster));
      if (local)
        CHECK(routing_hops(numa.chip, cluster, channel) == 1);
      else
        CHECK(routing_hops(numa.chip, cluster, channel) >= 2);
    }
  CHECK(numa.chip.interconnect.hop_latency > 0);  // so remote is slower than local
}
