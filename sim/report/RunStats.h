#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/Cycles.h"
#include "sim/energy/EnergyAccount.h"

namespace npusim {

// What the models measure during a run; the report writers turn it into files.

// What an engine's own cache did for one instruction (the fetch_ml state machine's
// fetch-path cache): lines found and lines read from memory, and the requested bytes the
// hits served.
struct CacheUse {
  std::uint64_t hits = 0, misses = 0, hit_bytes = 0;
};

// One executed instruction (a row of instructions.csv and of report.json).
struct InstructionRecord {
  std::uint64_t id = 0;
  std::string op;
  std::string engine;   // full engine name, e.g. "core0.vector"
  std::uint32_t core = 0;
  Cycles dispatch = 0;  // controller placed it in the engine queue
  Cycles start = 0;     // engine began executing it
  Cycles end = 0;       // engine finished it
  Cycles stall = 0;     // cycles at the head of the queue waiting on dependencies
  std::uint64_t bytes = 0;  // bytes moved (DMA) or touched (compute)
  std::uint64_t macs = 0;   // multiply-accumulates (compute engines)
  std::string state;        // the engine's state after it (state machines, e.g. "streaming"); else empty
  std::uint32_t lane = 0;   // which of the engine's in-flight slots ran it; lanes above 0 get their own timeline track
  CacheUse cache;
  bool launched_by_hardware = false;  // the engine started it itself (auto-fetch): no program instruction slot
};

// Per engine: busy + stall + idle = total cycles of the run.
struct EngineStats {
  std::string name;     // "core0.load"
  std::string kind;     // registered engine name: "load", "store", "vector", "matrix"
  std::uint32_t core = 0;
  std::uint64_t instructions = 0;
  Cycles busy = 0;
  Cycles stall = 0;
  std::uint64_t macs = 0;
};

// Per memory or bus port that carries traffic.
struct PortStats {
  std::string name;       // "dram.ch0", "core0.nram", "core0.matrix.broadcast_bus"
  std::string kind;       // "dram_channel", "scratchpad", "bus", "cache"
  double bytes_per_cycle = 0;  // peak bandwidth
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  Cycles busy = 0;        // cycles the port was transferring
  std::uint64_t capacity_bytes = 0;  // 0 when it has no capacity (buses, channels)
  std::uint64_t peak_occupancy_bytes = 0;  // high-water mark of bytes in use
};

struct RunStats {
  Cycles total_cycles = 0;
  double clock_mhz = 0;
  std::uint64_t instructions = 0;
  std::vector<EngineStats> engines;
  std::vector<PortStats> ports;
  // Counters blocks registered for themselves (StatRegistry): values by module, and units/meanings by kind.
  nlohmann::ordered_json registered = nlohmann::ordered_json::object();
  nlohmann::ordered_json registered_kinds = nlohmann::ordered_json::object();  // module -> kind
  nlohmann::ordered_json registered_catalogue = nlohmann::ordered_json::object();
  EnergyAccount energy;  // the run priced with the config's energy table (docs/energy.md)
};

}  // namespace npusim
