#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/HardwareConfig.h"
#include "sim/tensor/KernelDilation.h"
#include "sim/trace/Instruction.h"
#include "sim/trace/TraceFields.h"

namespace npusim {

// A named region of simulated memory that a functional run fills before it
// starts (header "inputs") or dumps as .npy when it ends (header "outputs").
struct DataBinding {
  std::string name;                  // also the stem of the dumped .npy
  std::uint32_t core = 0;            // owner of the NRAM/WRAM; ignored for DRAM
  TensorOperand region;              // space, offset, shape and dtype
  std::string file;                  // inputs only: .npy path as written in the trace
  std::string file_path;             // `file` resolved against the trace's directory
  std::optional<std::uint64_t> random_seed;  // inputs only: generate the data instead
  // Inputs only: the int8 data itself, carried by a compiled workload (an ONNX model's
  // weights); written to a .npy when the trace is saved (see apps/compiler/TraceWriter).
  std::shared_ptr<const std::vector<std::int8_t>> values;
  std::optional<double> zero_fraction;       // with random_seed: exactly this fraction of zeros (int8)
  // A dilated kernel: the .npy (and generated data) is the dense kernel `data_shape`;
  // memory holds it with zero taps, shape region.shape.
  KernelDilation dilation{1, 1};
  std::vector<std::uint64_t> data_shape;
  // A DRAM tensor stored in pieces (seed002 §3.1 S13: each piece in the memory of the
  // cluster that uses it), or a tensor kept in the cluster caches (a piece per cluster
  // cache, `cluster` naming it): its bytes in element order, `bytes` at `offset` per chunk.
  // Empty: one dense region at region.offset.
  struct Chunk {
    std::uint64_t offset = 0, bytes = 0;
    std::uint32_t cluster = 0;  // cluster-space chunks: whose cache
  };
  std::vector<Chunk> chunks;
  // Inputs only: the data is stored compressed, as prepared outside the accelerator
  // (seed001 ¶203-205): in the sparse cluster's flat format, its non-zeros at
  // region.offset (one int8 slot per element of the tensor as memory holds it) and their
  // int32 element indices at this offset, -1 after the last. Unset: stored dense.
  std::optional<std::uint64_t> compressed_indices;

  bool dilated() const { return dilation[0] > 1 || dilation[1] > 1; }
  // Sets the data shape and the region shape that holds it.
  void set_shape(std::vector<std::uint64_t> shape);
};

struct TraceHeader {
  std::uint32_t version = 1;
  std::vector<DataBinding> inputs;
  std::vector<DataBinding> outputs;
};

constexpr const char* kTraceFormat = "npusim-trace";
constexpr std::uint32_t kTraceVersion = 1;

// Checks line 1 of a trace and its bindings; .npy files named by inputs are
// opened (header only) to learn their shape and dtype.
TraceHeader parse_trace_header(const nlohmann::json& line, const HardwareConfig& cfg, const TracePlace& place,
                               const std::string& trace_dir);

}  // namespace npusim
