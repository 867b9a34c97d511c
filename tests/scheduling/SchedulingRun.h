#pragma once
// Hand-built traces for the seed004 dependency-mode tests, a machine whose
// timing is easy to follow by hand, and a reader for the run's outputs.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

// The test machine. Every figure a test expects is derived from these.
struct TestMachine {
  std::uint64_t dram_bytes_per_cycle = 16;
  std::uint64_t dram_latency = 100;         // after the data streamed
  std::uint64_t dma_bytes_per_cycle = 16;   // load DMA (and store DMA unless set below)
  std::uint64_t store_bytes_per_cycle = 0;  // 0: same as the load DMA
  std::uint64_t segment_bytes = 256;        // = one row of the test tensors
  std::uint64_t port_bytes_per_cycle = 256; // NRAM/WRAM: one row a cycle, no latency
  std::uint64_t vector_bytes_per_cycle = 64;
  std::uint64_t vector_latency = 2;
  std::uint64_t channel_bytes = 1 << 20;    // DRAM channel 0: [0, 1 MiB), channel 1 above
  std::uint64_t max_outstanding = 1;        // DMA instructions in flight: the derivations assume one at a time
  std::uint64_t max_segments = 16;          // the DMAs' default: a longer transfer gets longer segments
  std::string dependency_mode;              // /core/controller/dependency_mode when not empty

  std::string config_json() const;
  // Cycles one row spends on the DMA issue slot / in the vector pipeline.
  std::uint64_t row_cycles() const { return segment_bytes / dma_bytes_per_cycle; }
  std::uint64_t vector_row_cycles() const { return segment_bytes / vector_bytes_per_cycle; }
  // Bytes of one DMA segment of a `total`-byte transfer: segment_bytes, or a whole number of
  // them when more than max_segments would be needed (/core/load_dma/max_segments).
  std::uint64_t dma_segment_bytes(std::uint64_t total) const;
};

// A dense int8 tensor operand.
nlohmann::json tensor(const std::string& space, std::uint64_t offset, std::vector<std::uint64_t> shape);
nlohmann::json dependency(std::uint64_t id, const std::string& mode, const std::string& granularity = "");
// `deps` is a vector, not a json: clang and gcc read a one-element braced list
// `{dependency(...)}` differently for nlohmann::json (array vs copy).
nlohmann::json instruction(std::uint64_t id, const std::string& op, nlohmann::json in, nlohmann::json out,
                           std::vector<nlohmann::json> deps = {});

struct Timing {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
};

struct SchedulingRun {
  int status = -1;
  std::string output;
  std::map<std::uint64_t, Timing> by_id;  // from instructions.csv
  nlohmann::json report;                  // report.json
  std::string timeline;
  std::uint64_t total_cycles() const { return report.at("total_cycles").get<std::uint64_t>(); }
};

// Writes the config and trace lines into a fresh directory and runs npusim on
// them; `mode` is passed as --dependency-mode when not empty.
SchedulingRun run_trace(const std::string& name, const TestMachine& machine, const std::vector<nlohmann::json>& lines,
                        const std::string& mode = "");
// The same on any config (JSON text; "extends" paths must be absolute).
SchedulingRun run_trace_on(const std::string& name, const std::string& config_json,
                           const std::vector<nlohmann::json>& lines, const std::string& mode = "");

// Load -> relu -> store of `tiles` tiles of `rows` rows each; each tile's load
// waits for the previous tile's store (they share the DRAM bus), each relu on its
// load and each store on its relu, all with `mode` (granularity rows).
std::vector<nlohmann::json> tiled_relu_layer(const TestMachine& m, std::uint64_t tiles, std::uint64_t rows,
                                             const std::string& mode);
