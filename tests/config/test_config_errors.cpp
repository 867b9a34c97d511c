#include <catch2/catch.hpp>

#include "sim/common/InputError.h"
#include "sim/config/ConfigLoader.h"

using namespace npusim;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

// Parses `doc` (written as JSON text) and returns the InputError it must raise.
InputError rejection(const std::string& doc_text) {
  try {
    parse_hardware_config(json::parse(doc_text), "chip.json");
  } catch (const InputError& e) {
    CHECK(e.file() == "chip.json");
    return e;
  }
  FAIL("config was accepted: " << doc_text);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("config: unknown key names its path and suggests the nearest sibling", "[config]") {
  InputError e = rejection(R"({"chip": {"clock_mz": 900}})");
  CHECK(e.location() == "/chip/clock_mz");
  CHECK(e.reason() == "unknown key 'clock_mz'; did you mean 'clock_mhz'?");

  InputError nested = rejection(R"({"core": {"matrix": {"broadcast_bus": {"latancy": 3}}}})");
  CHECK(nested.location() == "/core/matrix/broadcast_bus/latancy");
  CHECK_THAT(nested.reason(), Contains("did you mean 'latency'?"));

  InputError far = rejection(R"({"chip": {"dram": {"zzzzzzzzzzzz": 1}}})");
  CHECK_THAT(far.reason(), Contains("unknown key 'zzzzzzzzzzzz'") && Contains("'channels'"));
  CHECK_THAT(far.reason(), !Contains("did you mean"));

  CHECK(rejection(R"({"cor": {}})").reason() == "unknown key 'cor'; did you mean 'core'?");
  CHECK(rejection(R"({"chip": {"dram": {"channels": {"x": 1}}}})").location() == "/chip/dram/channels");
}

TEST_CASE("config: extends is special only at the top level of a file", "[config]") {
  CHECK(rejection(R"({"chip": {"extends": "x.json"}})").location() == "/chip/extends");
  CHECK_THAT(rejection(R"({"extends": "x.json"})").reason(), Contains("loaded from a file"));
}

TEST_CASE("config: wrong type names the expected type", "[config]") {
  InputError text = rejection(R"({"chip": {"clusters": "two"}})");
  CHECK(text.location() == "/chip/clusters");
  CHECK_THAT(text.reason(), Contains("expected an integer"));
  CHECK_THAT(rejection(R"({"chip": {"clusters": 2.5}})").reason(), Contains("expected an integer"));
  CHECK_THAT(rejection(R"({"chip": {"clock_mhz": true}})").reason(), Contains("expected a number"));
  CHECK_THAT(rejection(R"({"chip": {"cluster_cache": {"enabled": 1}}})").reason(), Contains("true or false"));
  CHECK_THAT(rejection(R"({"chip": {"name": 7}})").reason(), Contains("expected a string"));
  CHECK_THAT(rejection(R"({"core": {"engines": "load"}})").reason(), Contains("expected a list of strings"));
  InputError entry = rejection(R"({"core": {"matrix": {"pci_candidates": [64, "32"]}}})");
  CHECK(entry.location() == "/core/matrix/pci_candidates/1");
  CHECK_THAT(entry.reason(), Contains("expected an integer"));
  CHECK_THAT(rejection(R"({"chip": {"dram": 4}})").reason(), Contains("expected an object"));
  CHECK(rejection("[]").location() == "top level");
}

TEST_CASE("config: out-of-range value names the allowed range", "[config]") {
  InputError big = rejection(R"({"chip": {"clusters": 65}})");
  CHECK(big.location() == "/chip/clusters");
  CHECK_THAT(big.reason(), Contains("out of range") && Contains("1..64"));
  CHECK_THAT(rejection(R"({"chip": {"clusters": -1}})").reason(), Contains("1..64"));
  CHECK_THAT(rejection(R"({"chip": {"dram": {"bytes_per_cycle": 0}}})").reason(),
             Contains("0.001..4096"));
  CHECK_THAT(rejection(R"({"core": {"nram": {"capacity_bytes": 1023}}})").reason(), Contains("1024.."));
  CHECK_THAT(rejection(R"({"core": {"load_dma": {"queue_depth": 0}}})").reason(), Contains("1..1024"));
  CHECK_THAT(rejection(R"({"core": {"matrix": {"slaves": 257}}})").reason(), Contains("1..256"));
  CHECK_NOTHROW(parse_hardware_config(json::parse(R"({"core": {"matrix": {"slaves": 256}}})"), "chip.json"));
}

TEST_CASE("config: power-of-two keys reject other values", "[config]") {
  InputError row = rejection(R"({"core": {"matrix": {"row_bytes": 96, "pci_candidates": [32]}}})");
  CHECK(row.location() == "/core/matrix/row_bytes");
  CHECK_THAT(row.reason(), Contains("power of two"));
  CHECK_THAT(rejection(R"({"chip": {"dram": {"interleave_bytes": 32}}})").reason(), Contains("64.."));
  CHECK_THAT(rejection(R"({"chip": {"dram": {"interleave_bytes": 300}}})").reason(), Contains("power of two"));
  CHECK(rejection(R"({"core": {"matrix": {"pci_candidates": [64, 24]}}})").location() ==
        "/core/matrix/pci_candidates/1");
  HardwareConfig sliced = parse_hardware_config(json::parse(R"({"chip": {"dram": {"interleave_bytes": 0}}})"), "c");
  CHECK(sliced.chip.dram.interleave_bytes == 0);
}

TEST_CASE("config: bad choice lists the choices", "[config]") {
  InputError e = rejection(R"({"chip": {"interconnect": {"topology": "nuna"}}})");
  CHECK(e.location() == "/chip/interconnect/topology");
  CHECK_THAT(e.reason(), Contains("'nuna'") && Contains("'smp', 'numa'") && Contains("did you mean 'numa'?"));

  InputError engine = rejection(R"({"core": {"engines": ["load", "vectr"]}})");
  CHECK(engine.location() == "/core/engines/1");
  CHECK_THAT(engine.reason(), Contains("'fetch_ml', 'load', 'matrix', 'shader', 'sparse', 'store', 'vector'") && Contains("did you mean 'vector'?"));
}

TEST_CASE("config: cross-field: Pci candidates fit the row, largest first, non-empty", "[config]") {
  InputError wide = rejection(R"({"core": {"matrix": {"row_bytes": 32}}})");  // default list starts at 64
  CHECK(wide.location() == "/core/matrix/pci_candidates/0");
  CHECK_THAT(wide.reason(), Contains("row_bytes"));
  CHECK(rejection(R"({"core": {"matrix": {"pci_candidates": [16, 32]}}})").location() ==
        "/core/matrix/pci_candidates/1");
  CHECK(rejection(R"({"core": {"matrix": {"pci_candidates": [16, 16]}}})").location() ==
        "/core/matrix/pci_candidates/1");
  InputError empty = rejection(R"({"core": {"matrix": {"pci_candidates": []}}})");
  CHECK(empty.location() == "/core/matrix/pci_candidates");
  CHECK_THAT(empty.reason(), Contains("empty"));
  CHECK_NOTHROW(parse_hardware_config(
      json::parse(R"({"core": {"matrix": {"row_bytes": 128, "pci_candidates": [128, 4]}}})"), "chip.json"));
}

TEST_CASE("config: cross-field: first buffer holds at least one row per CU", "[config]") {
  InputError e = rejection(R"({"core": {"matrix": {"cus_per_slave": 9}}})");  // L1 defaults to 8
  CHECK(e.location() == "/core/matrix/first_buffer_rows");
  CHECK_THAT(e.reason(), Contains("cus_per_slave"));
  CHECK_NOTHROW(parse_hardware_config(
      json::parse(R"({"core": {"matrix": {"cus_per_slave": 8, "first_buffer_rows": 8}}})"), "chip.json"));
}

TEST_CASE("config: cross-field: engines are unique and need load", "[config]") {
  InputError twice = rejection(R"({"core": {"engines": ["load", "matrix", "load"]}})");
  CHECK(twice.location() == "/core/engines/2");
  CHECK_THAT(twice.reason(), Contains("twice"));
  InputError no_load = rejection(R"({"core": {"engines": ["store", "matrix"]}})");
  CHECK(no_load.location() == "/core/engines");
  CHECK_THAT(no_load.reason(), Contains("'load'"));
  CHECK_NOTHROW(parse_hardware_config(json::parse(R"({"core": {"engines": ["load"]}})"), "chip.json"));
  // An empty list once passed here and then stopped the run inside SystemC.
  InputError none = rejection(R"({"core": {"engines": []}})");
  CHECK(none.location() == "/core/engines");
  CHECK_THAT(none.reason(), Contains("no engine") && Contains("'load'"));
}

TEST_CASE("config: cross-field: remote NUMA hops are not fewer than local ones", "[config]") {
  InputError e = rejection(R"({"chip": {"interconnect": {"numa_local_hops": 3}}})");  // remote defaults to 2
  CHECK(e.location() == "/chip/interconnect/numa_remote_hops");
  CHECK_THAT(e.reason(), Contains("numa_local_hops"));
  CHECK_NOTHROW(parse_hardware_config(
      json::parse(R"({"chip": {"interconnect": {"numa_local_hops": 3, "numa_remote_hops": 3}}})"), "chip.json"));
}

TEST_CASE("config: cross-field: DRAM capacity splits evenly over channels", "[config]") {
  InputError e = rejection(R"({"chip": {"dram": {"channels": 3, "interleave_bytes": 0}}})");  // 16 GiB / 3
  CHECK(e.location() == "/chip/dram/capacity_bytes");
  CHECK_THAT(rejection(R"({"chip": {"dram": {"capacity_bytes": 1048832}}})").reason(), Contains("256-byte"));
  CHECK_NOTHROW(parse_hardware_config(
      json::parse(R"({"chip": {"dram": {"channels": 3, "capacity_bytes": 3145728, "interleave_bytes": 1024}}})"),
      "chip.json"));
}

TEST_CASE("config: cross-field: an enabled relay holds one data row", "[config]") {
  InputError e = rejection(R"({"core": {"matrix": {"relay_bytes": 32}}})");
  CHECK(e.location() == "/core/matrix/relay_bytes");
  CHECK_NOTHROW(parse_hardware_config(
      json::parse(R"({"core": {"matrix": {"relay_bytes": 32, "relay_enabled": false}}})"), "chip.json"));
}
