#include "sim/config/ConfigSchema.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "sim/common/JsonInteger.h"

namespace npusim {

using nlohmann::json;

namespace {

constexpr double KiB = 1024.0;
constexpr double MiB = 1024.0 * KiB;
constexpr double GiB = 1024.0 * MiB;
constexpr double TiB = 1024.0 * GiB;
constexpr double kMaxBandwidth = 4096;  // bytes/cycle: a 32 Kbit path is already beyond any real port
// A port slower than a byte per thousand cycles models nothing real, and the
// bound keeps the longest transfer (4 GiB of scratchpad) within 64-bit cycle counts
// and SystemC's time range: 1e-300 once passed as "more than 0" and overflowed.
constexpr double kMinBandwidth = 0.001;
constexpr double kMaxLatency = 100000;  // cycles
constexpr double kMaxQueue = 1024;

// A checked value in the member's own type. Integers go through the checked
// reader: a range in the schema wider than the member would be a bug here, never
// a silently wrapped value.
template <class T>
T stored_as(const json& value) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (auto n = json_integer_as<T>(value)) return *n;
    throw std::logic_error("config value " + value.dump() + " does not fit its field");
  } else if constexpr (std::is_same_v<T, std::vector<std::uint32_t>>) {
    T list;
    for (const json& v : value) list.push_back(stored_as<std::uint32_t>(v));
    return list;
  } else {
    return value.get<T>();
  }
}

// Where one key lives: its pointer and how to move its value in and out of the struct.
struct Field {
  std::string path;
  std::function<void(HardwareConfig&, const json&)> store;
  std::function<json(const HardwareConfig&)> fetch;
};

// `locate` is a generic lambda returning a reference to the member, so one lambda
// serves both the writing (store) and the const reading (fetch) side.
template <class Locate>
Field make_field(const std::string& dotted, Locate locate) {
  Field f;
  f.path = config_path_of(dotted.c_str());
  f.store = [locate](HardwareConfig& cfg, const json& value) {
    auto& slot = locate(cfg);
    slot = stored_as<std::decay_t<decltype(slot)>>(value);
  };
  f.fetch = [locate](const HardwareConfig& cfg) { return json(locate(cfg)); };
  return f;
}

// A sub-struct (core.nram, core.load_dma, ...) whose fields are described once and
// reused for every block of the same kind. The block is reached through a plain
// function pointer, so every block of one kind shares one instantiation of the
// add_*_keys templates: generic-lambda types here once collided between blocks
// (GCC gave two instantiations one symbol and core.store_dma read core.load_dma).
template <class T>
struct Block {
  std::string dotted;
  T& (*locate)(HardwareConfig&);
};

template <class T>
Block<T> make_block(std::string dotted, T& (*locate)(HardwareConfig&)) {
  return {std::move(dotted), locate};
}

template <class T, class Inner>
Field field_in(const Block<T>& block, const char* member, Inner inner) {
  auto outer = block.locate;
  // fetch only reads through the reference, so dropping const here is safe.
  auto locate = [outer, inner](auto& cfg) -> auto& { return inner(outer(const_cast<HardwareConfig&>(cfg))); };
  return make_field(block.dotted + "." + member, locate);
}

#define NPUSIM_FIELD(member) make_field(#member, [](auto& c) -> auto& { return c.member; })
#define NPUSIM_BLOCK(member) make_block(#member, +[](HardwareConfig& c) -> auto& { return c.member; })
#define NPUSIM_IN(block, member) field_in(block, #member, [](auto& s) -> auto& { return s.member; })

ValueLimits within(double min, double max) { return ValueLimits{min, max}; }

ValueLimits powers_of_two(double min, double max) {
  ValueLimits l = within(min, max);
  l.power_of_two = true;
  return l;
}

ValueLimits off_or(ValueLimits l) {
  l.zero_allowed = true;
  return l;
}

ValueLimits non_empty(ValueLimits l) {
  l.non_empty = true;
  return l;
}

ConfigKey make_key(Field f, ValueType type, json default_value, ValueLimits limits,
                   std::string unit, std::string meaning) {
  ConfigKey k;
  k.path = std::move(f.path);
  k.type = type;
  k.unit = std::move(unit);
  k.default_value = std::move(default_value);
  k.limits = limits;
  k.meaning = std::move(meaning);
  k.store = std::move(f.store);
  k.fetch = std::move(f.fetch);
  return k;
}

ConfigKey integer(Field f, std::uint64_t def, ValueLimits limits, std::string unit, std::string meaning) {
  return make_key(std::move(f), ValueType::Integer, def, limits, std::move(unit), std::move(meaning));
}

ConfigKey number(Field f, double def, ValueLimits limits, std::string unit, std::string meaning) {
  return make_key(std::move(f), ValueType::Number, def, limits, std::move(unit), std::move(meaning));
}

ConfigKey bandwidth(Field f, double def, std::string meaning) {
  return number(std::move(f), def, within(kMinBandwidth, kMaxBandwidth), "bytes/cycle", std::move(meaning));
}

ConfigKey latency(Field f, std::uint64_t def, std::string meaning) {
  return integer(std::move(f), def, within(0, kMaxLatency), "cycles", std::move(meaning));
}

ConfigKey queue_depth(Field f, std::uint64_t def, std::string meaning) {
  return integer(std::move(f), def, within(1, kMaxQueue), "count", std::move(meaning));
}

ConfigKey flag(Field f, bool def, std::string meaning) {
  return make_key(std::move(f), ValueType::Bool, def, {}, "-", std::move(meaning));
}

ConfigKey text(Field f, std::string def, std::string meaning) {
  return make_key(std::move(f), ValueType::String, std::move(def), {}, "-", std::move(meaning));
}

ConfigKey choice(Field f, std::string def, std::vector<std::string> choices, std::string meaning) {
  ConfigKey k = make_key(std::move(f), ValueType::Choice, std::move(def), {}, "-", std::move(meaning));
  k.choices = std::move(choices);
  return k;
}

ConfigKey integer_list(Field f, std::vector<std::uint32_t> def, ValueLimits limits, std::string unit,
                       std::string meaning) {
  return make_key(std::move(f), ValueType::IntegerList, def, limits, std::move(unit), std::move(meaning));
}

ConfigKey name_list(Field f, std::vector<std::string> def, std::vector<std::string> choices,
                    std::string meaning) {
  ConfigKey k = make_key(std::move(f), ValueType::StringList, def, {}, "-", std::move(meaning));
  k.choices = std::move(choices);
  return k;
}

void add_chip_keys(std::vector<ConfigKey>& keys) {
  keys.push_back(text(NPUSIM_FIELD(chip.name), "npusim-default", "name shown in reports"));
  keys.push_back(number(NPUSIM_FIELD(chip.clock_mhz), 1000, within(1, 10000), "MHz",
                        "chip clock; only converts cycles to seconds in reports"));
  keys.push_back(integer(NPUSIM_FIELD(chip.clusters), 1, within(1, 64), "count", "compute-core clusters"));
  keys.push_back(integer(NPUSIM_FIELD(chip.cores_per_cluster), 1, within(1, 64), "count",
                         "cores in each cluster"));

  auto dram = NPUSIM_BLOCK(chip.dram);
  keys.push_back(integer(NPUSIM_IN(dram, channels), 4, within(1, 64), "count",
                         "off-chip memory channels (seed002: one per cluster is its local memory)"));
  keys.push_back(bandwidth(NPUSIM_IN(dram, bytes_per_cycle), 32, "streaming bandwidth of one channel"));
  keys.push_back(latency(NPUSIM_IN(dram, latency), 100, "extra delay of every access after its data streamed"));
  keys.push_back(integer(NPUSIM_IN(dram, interleave_bytes), 256, off_or(powers_of_two(64, GiB)), "bytes",
                         "address stripe handed to each channel in turn; 0 = each channel owns one "
                         "contiguous slice"));
  keys.push_back(integer(NPUSIM_IN(dram, capacity_bytes), 17179869184ULL, within(MiB, 256 * TiB), "bytes",
                         "whole DRAM (seed000: 16 GiB or more); must split evenly over the channels"));

  auto net = NPUSIM_BLOCK(chip.interconnect);
  keys.push_back(choice(NPUSIM_IN(net, topology), "smp", {"smp", "numa"},
                        "smp: every memory equally far; numa: a cluster's own channel is closer"));
  keys.push_back(latency(NPUSIM_IN(net, hop_latency), 10, "delay of crossing one routing node"));
  keys.push_back(integer(NPUSIM_IN(net, smp_hops), 2, within(1, 16), "hops",
                         "routing nodes between any core and any memory on an SMP chip"));
  keys.push_back(integer(NPUSIM_IN(net, numa_local_hops), 1, within(1, 16), "hops",
                         "routing nodes to the cluster's own memory on a NUMA chip"));
  keys.push_back(integer(NPUSIM_IN(net, numa_remote_hops), 2, within(1, 16), "hops",
                         "routing nodes to another cluster's memory on a NUMA chip; >= numa_local_hops"));

  auto cache = NPUSIM_BLOCK(chip.cluster_cache);
  keys.push_back(flag(NPUSIM_IN(cache, enabled), false, "each cluster has an off-core cache its cores share: trace space \"cluster\""));
  keys.push_back(integer(NPUSIM_IN(cache, capacity_bytes), 4 * 1048576, within(KiB, 4 * GiB), "bytes",
                         "capacity of one cluster's cache"));
  keys.push_back(bandwidth(NPUSIM_IN(cache, bytes_per_cycle), 128, "cache port bandwidth"));
  keys.push_back(latency(NPUSIM_IN(cache, latency), 20, "cycles added to every cache access"));
}

template <class B>
void add_scratchpad_keys(std::vector<ConfigKey>& keys, const B& ram, const std::string& what) {
  keys.push_back(integer(NPUSIM_IN(ram, capacity_bytes), 512 * 1024, within(KiB, 4 * GiB), "bytes",
                         what + " capacity"));
  keys.push_back(bandwidth(NPUSIM_IN(ram, port_bytes_per_cycle), 128, what + " port bandwidth"));
  keys.push_back(integer(NPUSIM_IN(ram, access_latency), 2, within(0, 10000), "cycles",
                         what + " delay of one access"));
}

template <class B>
void add_dma_keys(std::vector<ConfigKey>& keys, const B& dma, const std::string& what) {
  keys.push_back(queue_depth(NPUSIM_IN(dma, queue_depth), 8, what + " instructions waiting to issue"));
  keys.push_back(bandwidth(NPUSIM_IN(dma, bytes_per_cycle), 64, what + " peak bandwidth"));
  keys.push_back(latency(NPUSIM_IN(dma, setup_cycles), 20, what + " start-up cost of one transfer"));
  keys.push_back(integer(NPUSIM_IN(dma, segment_bytes), 4096, within(64, GiB), "bytes",
                         what + " piece handed to the memory system at a time"));
}

template <class B>
void add_bus_keys(std::vector<ConfigKey>& keys, const B& bus, const std::string& what) {
  keys.push_back(bandwidth(NPUSIM_IN(bus, bytes_per_cycle), 64, what + " bandwidth"));
  keys.push_back(integer(NPUSIM_IN(bus, latency), 2, within(0, 10000), "cycles", what + " transfer delay"));
}

void add_matrix_keys(std::vector<ConfigKey>& keys) {
  auto mx = NPUSIM_BLOCK(core.matrix);
  keys.push_back(queue_depth(NPUSIM_IN(mx, queue_depth), 4, "matrix instructions waiting to issue"));
  keys.push_back(integer(NPUSIM_IN(mx, slaves), 16, within(1, 256), "count", "slave circuits (N)"));
  keys.push_back(integer(NPUSIM_IN(mx, cus_per_slave), 4, within(1, 64), "count", "CUs in each slave (Ncu)"));
  keys.push_back(integer(NPUSIM_IN(mx, row_bytes), 64, powers_of_two(8, 4096), "bytes",
                         "one data row, the amount a CU takes per compute cycle (M)"));
  keys.push_back(integer(NPUSIM_IN(mx, first_buffer_rows), 8, within(1, 4096), "rows",
                         "feature-map rows each slave's first buffer holds (L1); >= cus_per_slave"));
  keys.push_back(integer(NPUSIM_IN(mx, second_buffer_rows), 9, within(1, 4096), "rows",
                         "weight rows each slave's second buffer holds (L2)"));
  keys.push_back(integer(NPUSIM_IN(mx, third_buffer_bytes), 4096, within(1, 64 * MiB), "bytes",
                         "each slave's third (result) buffer"));
  keys.push_back(integer_list(NPUSIM_IN(mx, pci_candidates), {64, 32, 16, 8}, non_empty(powers_of_two(1, 4096)),
                              "bytes", "input-channel split sizes Pci to choose from, largest first, each <= row_bytes"));
  keys.push_back(integer(NPUSIM_IN(mx, pci_padding_tolerance), 16, within(0, 4096), "bytes",
                         "a larger Pci is kept while its padding exceeds the least padding by less than this"));
  keys.push_back(integer(NPUSIM_IN(mx, co_block), 64, within(1, 65536), "count",
                         "output channels computed per outer round"));
  keys.push_back(integer(NPUSIM_IN(mx, mac_latency), 4, within(0, 10000), "cycles",
                         "pipeline delay of one CU multiply-accumulate"));
  add_bus_keys(keys, NPUSIM_BLOCK(core.matrix.broadcast_bus), "feature-map broadcast bus (master to all slaves):");
  add_bus_keys(keys, NPUSIM_BLOCK(core.matrix.distribution_bus), "weight distribution bus (master to one slave):");
  keys.push_back(flag(NPUSIM_IN(mx, relay_enabled), true,
                      "rows pass through the relay store, which inserts the Pci padding"));
  keys.push_back(integer(NPUSIM_IN(mx, relay_bytes), 256, within(1, 16 * MiB), "bytes",
                         "relay store capacity; >= row_bytes when the relay is enabled"));
}

void add_core_keys(std::vector<ConfigKey>& keys) {
  keys.push_back(name_list(NPUSIM_FIELD(core.engines), {"load", "store", "vector", "matrix"}, known_engine_names(),
                           "engine slots of each core; must include load, which brings all data on chip"));
  keys.push_back(integer(NPUSIM_FIELD(core.controller.dispatch_cycles), 1, within(0, 1000), "cycles",
                         "decode and issue cost of one instruction"));
  keys.push_back(choice(NPUSIM_FIELD(core.controller.dependency_mode), "as_traced",
                        {"as_traced", "full", "two_phase", "staged"},
                        "dependency release for the whole run (seed004): as_traced keeps each trace dependency's "
                        "mode; full, two_phase or staged force one mode on all of them"));
  add_scratchpad_keys(keys, NPUSIM_BLOCK(core.nram), "NRAM (feature maps):");
  add_scratchpad_keys(keys, NPUSIM_BLOCK(core.wram), "WRAM (weights):");
  add_dma_keys(keys, NPUSIM_BLOCK(core.load_dma), "load DMA (DRAM to NRAM/WRAM):");
  add_dma_keys(keys, NPUSIM_BLOCK(core.store_dma), "store DMA (NRAM to DRAM):");
  auto vec = NPUSIM_BLOCK(core.vector);
  keys.push_back(queue_depth(NPUSIM_IN(vec, queue_depth), 8, "vector instructions waiting to issue"));
  keys.push_back(bandwidth(NPUSIM_IN(vec, bytes_per_cycle), 64, "vector unit throughput"));
  keys.push_back(integer(NPUSIM_IN(vec, pipeline_latency), 8, within(0, 10000), "cycles",
                         "vector pipeline depth"));
  add_matrix_keys(keys);
}

#undef NPUSIM_FIELD
#undef NPUSIM_BLOCK
#undef NPUSIM_IN

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

const std::vector<std::string>& known_engine_names() {
  static const std::vector<std::string> names = {"load", "store", "vector", "matrix"};
  return names;
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
  for (const auto& key : config_schema()) {
    std::string type = type_name(key.type);
    type = type.substr(type.find(' ') + 1);  // drop the article
    if (key.type == ValueType::Choice) type = "choice";
    table += fmt::format("| `{}` | {} | {} | `{}` | {} | {} |\n", key.path, type, key.unit,
                         key.default_value.dump(), allowed_values_text(key), key.meaning);
  }
  return table;
}

}  // namespace npusim
