#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/common/Cycles.h"

namespace npusim {

// Plain configuration structs, one per hardware block, kept apart from the models
// (as DRAMSys does). Every field is filled from JSON by ConfigSchema, which also
// holds each key's unit, default and range: there are no defaults here.

struct DramConfig {
  std::uint32_t channels;
  double bytes_per_cycle;          // per channel
  Cycles latency;                  // per access, after the channel has streamed the data
  std::uint64_t interleave_bytes;  // 0 = each channel owns one contiguous slice
  std::uint64_t capacity_bytes;    // whole DRAM
};

struct InterconnectConfig {
  std::string topology;            // "smp" or "numa"
  Cycles hop_latency;              // per routing node crossed
  std::uint32_t smp_hops;          // every memory this many hops away
  std::uint32_t numa_local_hops;
  std::uint32_t numa_remote_hops;
};

struct ClusterCacheConfig {
  bool enabled;
  std::uint64_t capacity_bytes;
  double bytes_per_cycle;
  Cycles latency;
};

struct ScratchpadConfig {
  std::uint64_t capacity_bytes;
  double port_bytes_per_cycle;
  Cycles access_latency;
};

struct DmaConfig {
  std::uint32_t queue_depth;
  double bytes_per_cycle;
  Cycles setup_cycles;
  std::uint64_t segment_bytes;     // the DMA hands traffic to the memory system in pieces this large
};

struct VectorUnitConfig {
  std::uint32_t queue_depth;
  double bytes_per_cycle;
  Cycles pipeline_latency;
};

struct BusConfig {
  double bytes_per_cycle;
  Cycles latency;
};

struct MatrixUnitConfig {
  std::uint32_t queue_depth;
  std::uint32_t slaves;                       // N slave circuits
  std::uint32_t cus_per_slave;                // Ncu
  std::uint32_t row_bytes;                    // M, bytes per data row
  std::uint32_t first_buffer_rows;            // L1
  std::uint32_t second_buffer_rows;           // L2
  std::uint32_t third_buffer_bytes;
  std::vector<std::uint32_t> pci_candidates;  // bytes, largest first
  std::uint32_t pci_padding_tolerance;        // bytes; see models/matrix_unit
  std::uint32_t co_block;                     // output channels per outer round
  Cycles mac_latency;
  BusConfig broadcast_bus;
  BusConfig distribution_bus;
  bool relay_enabled;
  std::uint32_t relay_bytes;
};

struct ControllerConfig {
  Cycles dispatch_cycles;          // decode + issue cost per instruction
  std::string dependency_mode;     // "as_traced" or a mode forced on every dependency (seed004)
};

struct CoreConfig {
  std::vector<std::string> engines;  // engine slots, by registered name
  ControllerConfig controller;
  ScratchpadConfig nram;
  ScratchpadConfig wram;
  DmaConfig load_dma;
  DmaConfig store_dma;
  VectorUnitConfig vector;
  MatrixUnitConfig matrix;
};

struct ChipConfig {
  std::string name;
  double clock_mhz;
  std::uint32_t clusters;
  std::uint32_t cores_per_cluster;
  DramConfig dram;
  InterconnectConfig interconnect;
  ClusterCacheConfig cluster_cache;

  std::uint32_t cores() const { return clusters * cores_per_cluster; }
};

struct HardwareConfig {
  ChipConfig chip;
  CoreConfig core;
};

}  // namespace npusim
