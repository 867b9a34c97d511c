#include <catch2/catch.hpp>

#include <set>

#include "models/dma/DmaConfig.h"
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/vector_unit/VectorUnitConfig.h"
#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"
#include "sim/config/ConfigSchema.h"
#include "TestPaths.h"

using namespace npusim;
using nlohmann::json;

// The expected values below are the ones the product brief and seed000 state for the
// default chip, written independently of the schema table.
TEST_CASE("config: defaults: chip values from the brief", "[config]") {
  const ChipConfig chip = default_hardware_config().chip;
  CHECK(chip.name == "npusim-default");
  CHECK(chip.clock_mhz == 1000);
  CHECK(chip.clusters == 1);
  CHECK(chip.cores_per_cluster == 1);
  CHECK(chip.dram.channels == 4);
  CHECK(chip.dram.bytes_per_cycle == 32);
  CHECK(chip.dram.latency == 100);
  CHECK(chip.dram.interleave_bytes == 256);
  CHECK(chip.dram.capacity_bytes == 16ULL * 1024 * 1024 * 1024);
  CHECK(chip.interconnect.topology == Topology::Smp);
  CHECK(chip.interconnect.hop_latency == 10);
  CHECK(chip.interconnect.smp_hops == 2);
  CHECK(chip.interconnect.numa_local_hops == 1);
  CHECK(chip.interconnect.numa_remote_hops == 2);
  // Assumptions, argued in models/interconnect/README.md.
  CHECK(chip.interconnect.cluster_link_bytes_per_cycle == 256);
  CHECK(chip.interconnect.inter_cluster_link_bytes_per_cycle == 32);
  CHECK_FALSE(chip.cluster_cache.enabled);
  CHECK(chip.cluster_cache.capacity_bytes == 4 * 1024 * 1024);
  CHECK(chip.cluster_cache.bytes_per_cycle == 128);
  CHECK(chip.cluster_cache.latency == 20);
}

TEST_CASE("config: defaults: core values from the brief", "[config]") {
  const CoreConfig core = default_hardware_config().core;
  CHECK(core.engines == std::vector<std::string>{"load", "store", "vector", "matrix"});
  CHECK(core.controller.dispatch_cycles == 1);
  for (const ScratchpadConfig& ram : {core.nram, core.wram}) {
    CHECK(ram.capacity_bytes == 512 * 1024);
    CHECK(ram.port_bytes_per_cycle == 128);
    CHECK(ram.access_latency == 2);
  }
  for (const DmaConfig& dma : {core.block<DmaConfig>("load_dma"), core.block<DmaConfig>("store_dma")}) {
    CHECK(dma.queue_depth == 8);
    CHECK(dma.bytes_per_cycle == 64);
    CHECK(dma.setup_cycles == 20);
    CHECK(dma.segment_bytes == 4096);
    CHECK(dma.max_outstanding == 2);  // an assumption, argued in models/dma/README.md
  }
  const auto& vector = core.block<VectorUnitConfig>("vector");
  CHECK(vector.queue_depth == 8);
  CHECK(vector.bytes_per_cycle == 64);
  CHECK(vector.pipeline_latency == 8);
}

TEST_CASE("config: defaults: matrix unit is the seed000 embodiment", "[config]") {
  const MatrixUnitConfig mx = default_hardware_config().core.block<MatrixUnitConfig>("matrix");
  CHECK(mx.queue_depth == 4);
  CHECK(mx.slaves == 16);
  CHECK(mx.cus_per_slave == 4);
  CHECK(mx.row_bytes == 64);
  CHECK(mx.first_buffer_rows == 8);
  CHECK(mx.second_buffer_rows == 9);
  CHECK(mx.third_buffer_bytes == 4096);
  CHECK(mx.pci_candidates == std::vector<std::uint32_t>{64, 32, 16, 8});
  CHECK(mx.pci_padding_tolerance == 16);
  CHECK(mx.co_block == 64);
  CHECK(mx.mac_latency == 4);
  for (const BusConfig& bus : {mx.broadcast_bus, mx.distribution_bus}) {
    CHECK(bus.bytes_per_cycle == 64);
    CHECK(bus.latency == 2);
  }
  CHECK(mx.relay_enabled);
  CHECK(mx.relay_bytes == 256);
}

TEST_CASE("config: schema: every key is unique and resolved defaults equal the table", "[config]") {
  std::set<std::string> paths;
  json resolved = resolved_config_json(default_hardware_config());
  for (const auto& key : config_schema()) {
    INFO(key.path);
    CHECK(paths.insert(key.path).second);
    CHECK_FALSE(key.meaning.empty());
    CHECK_FALSE(key.unit.empty());
    CHECK(resolved.at(json::json_pointer(key.path)) == key.default_value);
  }
  CHECK(resolved.flatten().size() >= config_schema().size());
}

namespace {

// Some other valid value for `key`, so a test can see which field it lands in.
std::vector<json> alternatives(const ConfigKey& key) {
  const json& d = key.default_value;
  switch (key.type) {
    case ValueType::Bool: return {!d.get<bool>()};
    // A name, or (for /chip/energy_table, whose names must exist) a table file.
    case ValueType::String: return {d.get<std::string>() + "-x", NPUSIM_SOURCE_DIR "/configs/energy/default-16nm.json"};
    case ValueType::Choice: {
      std::vector<json> out;
      for (const auto& c : key.choices)
        if (c != d.get<std::string>()) out.push_back(c);
      return out;
    }
    case ValueType::Integer: {
      auto v = d.get<std::uint64_t>();
      // The lower limit too: a key that defaults to "off" (0) has no nearby legal value.
      return {v * 2, v + 1, v / 2, v - 1, 1, std::uint64_t(key.limits.min)};
    }
    case ValueType::Number: {
      auto v = d.get<double>();
      return {v * 2, v / 2, v + 1};
    }
    case ValueType::IntegerList:
    case ValueType::StringList: {
      json shorter = d;
      shorter.erase(shorter.size() - 1);
      return {shorter};
    }
  }
  return {};
}

}  // namespace

// Catches an accessor that stores into the wrong struct field (say store_dma for load_dma):
// changing one key must change that key, and only that key, in the resolved config.
TEST_CASE("config: schema: each key stores into its own field", "[config]") {
  const json base = resolved_config_json(default_hardware_config());
  for (const auto& key : config_schema()) {
    INFO(key.path);
    json::json_pointer pointer(key.path);
    bool tried = false;
    for (const json& value : alternatives(key)) {
      if (value == key.default_value) continue;
      json doc = base;
      doc[pointer] = value;
      HardwareConfig cfg;
      try {
        cfg = parse_hardware_config(doc, "test.json");
      } catch (const InputError&) {
        continue;  // that alternative breaks a limit or a cross-field rule; try the next
      }
      json expected = base;
      expected[pointer] = value;
      CHECK(resolved_config_json(cfg) == expected);
      tried = true;
      break;
    }
    CHECK(tried);
  }
}

TEST_CASE("config: resolved config round-trips through parse_hardware_config", "[config]") {
  json doc = {{"chip", {{"name", "rt"}, {"clusters", 3}, {"dram", {{"bytes_per_cycle", 12.5}}}}},
              {"core", {{"engines", {"load", "matrix"}}, {"matrix", {{"pci_candidates", {32, 4}}}}}}};
  HardwareConfig first = parse_hardware_config(doc, "rt.json");
  json resolved = resolved_config_json(first);
  CHECK(resolved.at("/chip/dram/bytes_per_cycle"_json_pointer) == 12.5);
  CHECK(resolved.at("/core/matrix/pci_candidates"_json_pointer) == json({32, 4}));
  json again = resolved_config_json(parse_hardware_config(resolved, "rt.json"));
  CHECK(again == resolved);
  CHECK(again.dump() == resolved.dump());
}
