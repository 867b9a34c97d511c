#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/common/Cycles.h"
#include "sim/common/DependencyModes.h"
#include "sim/config/BlockConfigs.h"
#include "sim/energy/EnergyTable.h"

namespace npusim {

// Plain configuration structs, one per hardware block, kept apart from the models
// (as DRAMSys does). Every field is filled from JSON by ConfigSchema, which also
// holds each key's unit, default and range: there are no defaults here.

// bandwidth: each channel a bandwidth pipe plus a fixed latency; banked: ranks, banks,
// rows and JEDEC timings per channel (models/banked_dram/README.md).
enum class DramModel { Bandwidth, Banked };
NLOHMANN_JSON_SERIALIZE_ENUM(DramModel, {{DramModel::Bandwidth, "bandwidth"}, {DramModel::Banked, "banked"}})
inline constexpr std::array<DramModel, 2> kDramModels = {DramModel::Bandwidth, DramModel::Banked};

enum class PagePolicy { Open, Closed };
NLOHMANN_JSON_SERIALIZE_ENUM(PagePolicy, {{PagePolicy::Open, "open"}, {PagePolicy::Closed, "closed"}})
inline constexpr std::array<PagePolicy, 2> kPagePolicies = {PagePolicy::Open, PagePolicy::Closed};

// all_bank: every tREFI all banks refresh at once (tRFC); per_bank: each bank on its own turn,
// the turns spread evenly over tREFI, blocking only that bank (tRFCpb/tRFCsb).
enum class RefreshMode { AllBank, PerBank };
NLOHMANN_JSON_SERIALIZE_ENUM(RefreshMode, {{RefreshMode::AllBank, "all_bank"}, {RefreshMode::PerBank, "per_bank"}})
inline constexpr std::array<RefreshMode, 2> kRefreshModes = {RefreshMode::AllBank, RefreshMode::PerBank};

// One banked channel's organisation, controller and timings. Every timing is in clocks of the
// DRAM's own command clock (clock_mhz), not the chip's.
struct BankedDramConfig {
  double clock_mhz;                  // command clock (CK); DDR4-3200: 1600
  std::uint32_t transfers_per_clock; // data beats per CK: 2 for DDR/HBM, 8 for LPDDR5 (WCK 4:1)
  std::uint32_t bus_width_bits;      // data bus of one channel
  std::uint32_t device_width_bits;   // x4/x8/x16 devices; bus_width / device_width devices per rank
  std::uint32_t burst_length;
  std::uint32_t ranks, bank_groups, banks_per_group, rows, columns;
  PagePolicy page_policy;
  std::string address_map;           // MSB to LSB, e.g. "row:rank:bank:bankgroup:column"
  bool bank_group_xor;               // bank group bits ^= low row bits
  std::uint32_t read_queue, write_queue, write_high, write_low;
  std::uint32_t cl, cwl, trcd, trp, tras, trc, trrd_s, trrd_l, tccd_s, tccd_l, tfaw;
  std::uint32_t twr, twtr_s, twtr_l, trtp, trtw, trefi, trfc;
  RefreshMode refresh_mode;
  std::uint32_t trfc_pb;  // per-bank refresh to next ACT of that bank; 0 = the standard has none
  // Supply and currents of one device (mA), for energy per command the DRAMPower way.
  double vdd, idd0, idd2n, idd3n, idd4r, idd4w, idd5b;
  std::uint64_t burst_bytes() const { return std::uint64_t{bus_width_bits} / 8 * burst_length; }
  std::uint32_t burst_clocks() const { return burst_length / transfers_per_clock; }
};

struct DramConfig {
  DramModel model;
  BankedDramConfig banked;
  std::uint32_t channels;
  double bytes_per_cycle;          // per channel
  Cycles latency;                  // per access, after the channel has streamed the data
  std::uint64_t interleave_bytes;  // 0 = each channel owns one contiguous slice
  std::uint64_t capacity_bytes;    // whole DRAM
};

// smp: every memory equally far; numa: a cluster's own channel is closer.
enum class Topology { Smp, Numa };
NLOHMANN_JSON_SERIALIZE_ENUM(Topology, {{Topology::Smp, "smp"}, {Topology::Numa, "numa"}})
inline constexpr std::array<Topology, 2> kTopologies = {Topology::Smp, Topology::Numa};

struct InterconnectConfig {
  Topology topology;
  Cycles hop_latency;              // per routing node crossed
  std::uint32_t smp_hops;          // every memory this many hops away
  std::uint32_t numa_local_hops;
  std::uint32_t numa_remote_hops;
  double cluster_link_bytes_per_cycle;        // each cluster's link into the routing fabric
  double inter_cluster_link_bytes_per_cycle;  // NUMA: the link between two clusters' routing nodes
  bool multicast;  // the fabric can replicate one DRAM read to several cores (load params.multicast)
};

struct ClusterCacheConfig {
  bool enabled;
  std::uint64_t capacity_bytes;
  double bytes_per_cycle;
  Cycles latency;
  std::uint32_t remote_hops;  // routing nodes from a core to another cluster's cache
};

// A scratchpad's SRAM banks (models/scratchpad/README.md): count 0 keeps the one shared port.
struct BankConfig {
  std::uint32_t count = 0;
  std::uint32_t request_bytes = 64;     // one request: an aligned chunk of this many bytes
  std::uint32_t interleave_bytes = 64;  // consecutive chunks of this many bytes go to consecutive banks
  std::uint32_t ports = 1;              // requests a bank serves at once
  Cycles request_cycles = 1;            // a request holds its bank port this long
};

struct ScratchpadConfig {
  std::uint64_t capacity_bytes;
  double port_bytes_per_cycle;
  Cycles access_latency;
  BankConfig banks;
};

struct ControllerConfig {
  Cycles dispatch_cycles;          // decode + issue cost per instruction
  DependencyRelease dependency_mode;  // as traced, or one mode forced on every dependency (seed004)
};

// One kind of core: its memories and engine slots, and each engine's own config
// section (a struct the engine's folder defines; see BlockConfigs).
struct CoreConfig {
  std::string kind;                  // "core" for the /core section, else its name under /core_kinds
  std::vector<std::string> engines;  // engine slots, by registered name
  ControllerConfig controller;       // chip-wide: only the /core section's is used
  ScratchpadConfig nram;
  ScratchpadConfig wram;
  ScratchpadConfig register_file;    // capacity 0: no register file (only shader cores have one)
  BlockConfigs blocks;
  std::uint32_t per_cluster = 0;           // core kinds: cores of this kind in each cluster that has it
  std::vector<std::uint32_t> in_clusters;  // core kinds: clusters that have it; empty = every cluster

  template <class T>
  const T& block(const std::string& section) const { return blocks.get<T>(section); }
  template <class T>
  T& block(const std::string& section) { return blocks.get<T>(section); }
  bool has_engine(const std::string& name) const {
    return std::find(engines.begin(), engines.end(), name) != engines.end();
  }
};

struct ChipConfig {
  std::string name;
  double clock_mhz;
  std::uint32_t clusters;
  std::uint32_t cores_per_cluster;
  DramConfig dram;
  InterconnectConfig interconnect;
  ClusterCacheConfig cluster_cache;
  std::string energy_table;  // a shipped table's name, or a JSON file (docs/energy.md)

  std::uint32_t cores() const { return clusters * cores_per_cluster; }
};

struct HardwareConfig {
  ChipConfig chip;
  CoreConfig core;                     // every core not given another kind
  std::vector<CoreConfig> core_kinds;  // /core_kinds, in name order
  std::vector<std::uint32_t> kind_of_core;  // per core: 0 = core, i + 1 = core_kinds[i]; empty = all "core"
  std::shared_ptr<const EnergyTable> energy;  // /chip/energy_table, loaded and checked

  const CoreConfig& core_of(std::uint32_t core_index) const {
    const std::uint32_t k = core_index < kind_of_core.size() ? kind_of_core[core_index] : 0;
    return k == 0 ? core : core_kinds.at(k - 1);
  }
  // The /core section first, then every core kind.
  std::vector<const CoreConfig*> kinds() const {
    std::vector<const CoreConfig*> all{&core};
    for (const auto& k : core_kinds) all.push_back(&k);
    return all;
  }
  // Cores (by index) whose kind has the engine.
  std::vector<std::uint32_t> cores_with(const std::string& engine) const {
    std::vector<std::uint32_t> found;
    for (std::uint32_t i = 0; i < chip.cores(); ++i)
      if (core_of(i).has_engine(engine)) found.push_back(i);
    return found;
  }
};

}  // namespace npusim
