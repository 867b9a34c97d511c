#include "sim/config/ConfigSchema.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "sim/config/ChipField.h"
#include "sim/config/CoreSections.h"
#include "sim/config/EnergyTableRef.h"

namespace npusim {

using nlohmann::json;

namespace {

void add_chip_keys(std::vector<ConfigKey>& keys) {
  keys.push_back(text(NPUSIM_FIELD(chip.name), "npusim-default", "name shown in reports"));
  keys.push_back(number(NPUSIM_FIELD(chip.clock_mhz), 1000, within(1, 10000), "MHz",
                        "chip clock; only converts cycles to seconds in reports"));
  keys.push_back(integer(NPUSIM_FIELD(chip.clusters), 1, within(1, 64), "count", "compute-core clusters"));
  keys.push_back(integer(NPUSIM_FIELD(chip.cores_per_cluster), 1, within(1, 64), "count",
                         "cores in each cluster"));

  keys.push_back(choice(NPUSIM_FIELD(chip.dram.model), "bandwidth", json_names(kDramModels),
                        "bandwidth: each channel a bandwidth pipe plus `latency`; banked: ranks, banks, rows, "
                        "refresh and JEDEC timings from /chip/dram/banked (models/banked_dram/README.md)"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.channels), 4, within(1, 64), "count",
                         "off-chip memory channels (seed002: one per cluster is its local memory)"));
  keys.push_back(bandwidth(NPUSIM_FIELD(chip.dram.bytes_per_cycle), 32, "streaming bandwidth of one channel"));
  keys.push_back(latency(NPUSIM_FIELD(chip.dram.latency), 100, "extra delay of every access after its data streamed"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.interleave_bytes), 256, off_or(powers_of_two(64, GiB)), "bytes",
                         "address stripe handed to each channel in turn; 0 = each channel owns one "
                         "contiguous slice"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.capacity_bytes), 17179869184ULL, within(MiB, 256 * TiB), "bytes",
                         "whole DRAM (seed000: 16 GiB or more); must split evenly over the channels"));
  add_banked_dram_keys(keys);

  keys.push_back(choice(NPUSIM_FIELD(chip.interconnect.topology), "smp", json_names(kTopologies),
                        "smp: every memory equally far; numa: a cluster's own channel is closer"));
  keys.push_back(latency(NPUSIM_FIELD(chip.interconnect.hop_latency), 10, "delay of crossing one routing node"));
  keys.push_back(integer(NPUSIM_FIELD(chip.interconnect.smp_hops), 2, within(1, 16), "hops",
                         "routing nodes between any core and any memory on an SMP chip"));
  keys.push_back(integer(NPUSIM_FIELD(chip.interconnect.numa_local_hops), 1, within(1, 16), "hops",
                         "routing nodes to the cluster's own memory on a NUMA chip"));
  keys.push_back(integer(NPUSIM_FIELD(chip.interconnect.numa_remote_hops), 2, within(1, 16), "hops",
                         "routing nodes to another cluster's memory on a NUMA chip; >= numa_local_hops"));
  keys.push_back(bandwidth(NPUSIM_FIELD(chip.interconnect.cluster_link_bytes_per_cycle), 256,
                           "link from a cluster to its routing node, both directions together; all the cluster's "
                           "DRAM traffic crosses it (assumption)"));
  keys.push_back(bandwidth(NPUSIM_FIELD(chip.interconnect.inter_cluster_link_bytes_per_cycle), 32,
                           "link between two clusters' routing nodes on a NUMA chip, both directions together; "
                           "traffic to the other cluster's memory crosses it (assumption)"));
  keys.push_back(flag(NPUSIM_FIELD(chip.interconnect.multicast), true,
                      "the routing nodes can replicate one DRAM read to several cores (seed002 §3.9: data-parallel "
                      "cores share each weight block); false: every core reads its own (assumption)"));

  keys.push_back(flag(NPUSIM_FIELD(chip.cluster_cache.enabled), false, "each cluster has an off-core cache its cores share: trace space \"cluster\""));
  keys.push_back(integer(NPUSIM_FIELD(chip.cluster_cache.capacity_bytes), 4 * 1048576, within(KiB, 4 * GiB), "bytes",
                         "capacity of one cluster's cache"));
  keys.push_back(bandwidth(NPUSIM_FIELD(chip.cluster_cache.bytes_per_cycle), 128, "cache port bandwidth"));
  keys.push_back(latency(NPUSIM_FIELD(chip.cluster_cache.latency), 20, "cycles added to every cache access"));
  keys.push_back(integer(NPUSIM_FIELD(chip.cluster_cache.remote_hops), 2, within(1, 16), "hops",
                         "routing nodes between a core and another cluster's cache (seed002 Example 1), each "
                         "hop_latency cycles both ways"));

  keys.push_back(text(NPUSIM_FIELD(chip.energy_table), kDefaultEnergyTable,
                      "per-action energies, leakage and areas (docs/energy.md): the name of a table shipped in "
                      "configs/energy/, or a .json file, relative to the config file that names it"));
}

// SRAM banks of NRAM/WRAM (issue 33; assumptions, models/scratchpad/README.md).
void add_bank_keys(std::vector<ConfigKey>& keys, const SectionFields<BankConfig>& banks, const std::string& what) {
  using B = BankConfig;
  keys.push_back(integer(banks("count", &B::count), 0, off_or(within(1, 1024)), "count",
                         what + " SRAM banks that serve requests side by side; 0 = no banks, one port of "
                                "port_bytes_per_cycle shared by every requester"));
  keys.push_back(integer(banks("request_bytes", &B::request_bytes), 64, powers_of_two(1, 4096), "bytes",
                         what + " one bank request: an aligned chunk of this many bytes"));
  keys.push_back(integer(banks("interleave_bytes", &B::interleave_bytes), 64, powers_of_two(1, 1 << 20), "bytes",
                         what + " address interleaving: consecutive chunks of this size go to consecutive banks"));
  keys.push_back(integer(banks("ports", &B::ports), 1, within(1, 8), "count",
                         what + " requests one bank serves at once (1 = single-ported SRAM)"));
  keys.push_back(integer(banks("request_cycles", &B::request_cycles), 1, within(1, 1024), "cycles",
                         what + " cycles a request holds its bank port"));
}

void add_scratchpad_keys(std::vector<ConfigKey>& keys, const SectionFields<ScratchpadConfig>& ram,
                         const std::string& what) {
  keys.push_back(integer(ram("capacity_bytes", &ScratchpadConfig::capacity_bytes), 512 * 1024, within(KiB, 4 * GiB),
                         "bytes", what + " capacity"));
  keys.push_back(bandwidth(ram("port_bytes_per_cycle", &ScratchpadConfig::port_bytes_per_cycle), 128,
                           what + " port bandwidth"));
  keys.push_back(latency(ram("access_latency", &ScratchpadConfig::access_latency), 2, what + " delay of one access",
                         kMaxBlockLatency));
  add_bank_keys(keys, ram.nested("banks", &ScratchpadConfig::banks), what);
}

// The shader core's register file (seed003 201) is a core memory like NRAM, in trace space "rf".
// The seed gives no size; its own example (¶[0046]) has 81-byte tiles, so the floor is not
// NRAM's 1 KiB but one 64-byte block, the unit the shader mapping lays a group out in
// (ShaderMapping.cpp); whether a tile fits a group is the mapping's check, with its own message.
constexpr double kRegisterFileBlockBytes = 64;

void add_register_file_keys(std::vector<ConfigKey>& keys, const SectionFields<ScratchpadConfig>& rf) {
  keys.push_back(integer(rf("capacity_bytes", &ScratchpadConfig::capacity_bytes), 0,
                         off_or(within(kRegisterFileBlockBytes, GiB)),
                         "bytes", "register file (shader cores, seed003): capacity, split into the shader's "
                                  "register groups; 0 = no register file"));
  keys.push_back(bandwidth(rf("port_bytes_per_cycle", &ScratchpadConfig::port_bytes_per_cycle), 512,
                           "register file: bandwidth shared by fetch_ml writes and datapath reads (assumption)"));
  keys.push_back(latency(rf("access_latency", &ScratchpadConfig::access_latency), 1,
                         "register file: delay of one access (assumption)", kMaxBlockLatency));
}

// The controller is chip-wide: its keys sit in /core for compatibility and are not per core kind.
void add_controller_keys(std::vector<ConfigKey>& keys, const SectionFields<ControllerConfig>& ctl) {
  keys.push_back(integer(ctl("dispatch_cycles", &ControllerConfig::dispatch_cycles), 1, within(0, 1000), "cycles",
                         "decode and issue cost of one instruction"));
  keys.push_back(choice(ctl("dependency_mode", &ControllerConfig::dependency_mode), "as_traced",
                        json_names(kDependencyReleases),
                        "dependency release for the whole run (seed004): as_traced keeps each trace dependency's "
                        "mode; full, two_phase or staged force one mode on all of them"));
  keys[keys.size() - 1].scope = keys[keys.size() - 2].scope = KeyScope::Chip;
}

// What every core kind has whatever its engines: the engine list and NRAM/WRAM,
// then the sections the engines registered.
void add_core_keys(std::vector<ConfigKey>& keys) {
  SectionFields<CoreConfig> core("", [](CoreConfig& c) -> CoreConfig& { return c; });
  keys.push_back(name_list(core("engines", &CoreConfig::engines), {"load", "store", "vector", "matrix"},
                           known_engine_names(),
                           "engine slots of each core; must include load, which brings all data on chip"));
  add_controller_keys(keys, core.nested("controller", &CoreConfig::controller));
  add_scratchpad_keys(keys, core.nested("nram", &CoreConfig::nram), "NRAM (feature maps):");
  add_scratchpad_keys(keys, core.nested("wram", &CoreConfig::wram), "WRAM (weights):");
  add_register_file_keys(keys, core.nested("register_file", &CoreConfig::register_file));
  for (const CoreSection& section : core_sections())
    keys.insert(keys.end(), section.keys.begin(), section.keys.end());
}


// Keys only a core kind has: where its cores sit. Every other core key of a kind
// defaults to the /core section's value.
std::vector<ConfigKey> build_kind_keys() {
  SectionFields<CoreConfig> kind("", [](CoreConfig& c) -> CoreConfig& { return c; });
  std::vector<ConfigKey> keys;
  keys.push_back(integer(kind("per_cluster", &CoreConfig::per_cluster), 0, within(1, 64), "count",
                         "cores of this kind in each cluster that has it; the /core kind fills the rest"));
  keys.push_back(integer_list(kind("in_clusters", &CoreConfig::in_clusters), {}, within(0, 63), "index",
                              "clusters that have this kind; empty = every cluster"));
  keys[0].default_value = nullptr;  // required
  for (auto& key : keys) key.path = "/core_kinds/<name>" + key.core_path;
  return keys;
}

std::vector<ConfigKey> build_schema() {
  std::vector<ConfigKey> keys;
  add_chip_keys(keys);
  add_core_keys(keys);
  return keys;
}

std::string show_number(double v) {
  if (std::floor(v) == v && std::fabs(v) < 9e18) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{}", v);
}

std::string range_text(const ValueLimits& l) {
  std::string text = fmt::format("{}..{}", show_number(l.min), show_number(l.max));
  if (l.power_of_two) text = "a power of two in " + text;
  if (l.zero_allowed) text = "0, or " + text;
  return text;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "`" : ", `") + n + "`";
  return text;
}

}  // namespace

const std::vector<ConfigKey>& core_kind_keys() {
  static const std::vector<ConfigKey> keys = build_kind_keys();
  return keys;
}

std::optional<std::string> core_kind_name_problem(const std::string& name) {
  if (name == "core") return std::string("'core' is the /core section's kind; give this kind another name");
  bool plain = !name.empty() && name.size() <= 32;
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
  if (!plain) return "a core kind name is 1 to 32 letters, digits, '_' or '-'";
  return std::nullopt;
}

const std::vector<ConfigKey>& config_schema() {
  static const std::vector<ConfigKey> keys = build_schema();
  return keys;
}

std::string config_path_of(const char* dotted_member) {
  std::string path = std::string("/") + dotted_member;
  for (char& c : path)
    if (c == '.') c = '/';
  return path;
}

std::string pointer_token(const std::string& name) {
  std::string token;
  for (char c : name) {
    if (c == '~') token += "~0";
    else if (c == '/') token += "~1";
    else token += c;
  }
  return token;
}

std::string type_name(ValueType type) {
  switch (type) {
    case ValueType::Bool: return "a boolean";
    case ValueType::Integer: return "an integer";
    case ValueType::Number: return "a number";
    case ValueType::String: return "a string";
    case ValueType::Choice: return "a string";
    case ValueType::IntegerList: return "a list of integers";
    case ValueType::StringList: return "a list of strings";
  }
  return "a value";
}

std::string allowed_values_text(const ConfigKey& key) {
  const ValueLimits& l = key.limits;
  switch (key.type) {
    case ValueType::Bool: return "true, false";
    case ValueType::String: return "non-empty";
    case ValueType::Choice: return "one of " + quoted_list(key.choices);
    case ValueType::Integer:
    case ValueType::Number: return range_text(l);
    case ValueType::IntegerList:
      return (l.non_empty ? "non-empty; each " : "each ") + range_text(l);
    case ValueType::StringList: return "each one of " + quoted_list(key.choices) + "; no repeats";
  }
  return "";
}

std::string config_reference_markdown() {
  std::string table =
      "| Key | Type | Unit | Default | Allowed | Meaning |\n"
      "|---|---|---|---|---|---|\n";
  std::vector<const ConfigKey*> rows;
  for (const auto& key : config_schema()) rows.push_back(&key);
  for (const auto& key : core_kind_keys()) rows.push_back(&key);
  for (const ConfigKey* row : rows) {
    const ConfigKey& key = *row;
    std::string type = type_name(key.type);
    type = type.substr(type.find(' ') + 1);  // drop the article
    if (key.type == ValueType::Choice) type = "choice";
    table += fmt::format("| `{}` | {} | {} | `{}` | {} | {} |\n", key.path, type, key.unit,
                         key.default_value.is_null() ? "required" : key.default_value.dump(),
                         allowed_values_text(key), key.meaning);
  }
  return table;
}

}  // namespace npusim
