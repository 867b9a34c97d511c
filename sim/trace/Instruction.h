#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/DependencyModes.h"
#include "sim/common/JsonInteger.h"
#include "sim/tensor/DType.h"

namespace npusim {

// Where a tensor operand lives. DRAM is chip-global; NRAM and WRAM belong to the
// core that executes the instruction.
// Cluster: the off-core cache its cores share (seed002 "cluster" storage), when enabled.
// rf: a core's register file (shader cores, seed003); exists when /core/register_file has a capacity.
enum class AddressSpace { Dram, Nram, Wram, Cluster, Rf };
const char* address_space_name(AddressSpace s);

struct TensorOperand {
  AddressSpace space = AddressSpace::Dram;
  std::uint64_t offset = 0;              // bytes from the start of the space
  std::vector<std::uint64_t> shape;      // outermost first
  std::string layout = "NHWC";           // informative; data is row-major
  DType dtype = DType::Int8;
  std::vector<std::string> tags;         // optional free-form labels from the trace
  // Bytes from the start of one innermost row to the next; 0 = dense. A DMA
  // operand with a pitch is a window of a wider tensor (a channel block of NHWC).
  std::uint64_t pitch = 0;
  // A `cluster` operand of a load or store may name another cluster's off-core cache
  // (seed002 Example 1: core 1 reads off-core cache 2); unset = the core's own cluster.
  std::optional<std::uint32_t> cluster;

  std::uint64_t elements() const;
  std::uint64_t bytes() const { return elements() * dtype_size(dtype); }
  std::uint64_t row_bytes() const;       // one innermost row
  std::uint64_t row_pitch() const { return pitch ? pitch : row_bytes(); }
  bool dense() const { return row_pitch() == row_bytes(); }
  std::uint64_t end() const;             // one past the last byte of the span
  // Tensor bytes (in element order) stored below `address`.
  std::uint64_t bytes_before(std::uint64_t address) const;
  // Address of the tensor's byte number `index` (element order).
  std::uint64_t address_of(std::uint64_t index) const;
  // Whether some tensor byte lies in [begin, end).
  bool touches(std::uint64_t begin, std::uint64_t end) const { return bytes_before(end) > bytes_before(begin); }
};

// Calls fn(address, first, count) for each contiguous run of the tensor bytes
// [begin, end) (element order): one run for a dense tensor, one per innermost
// row touched for a pitched one.
template <typename Fn>
void for_each_run(const TensorOperand& t, std::uint64_t begin, std::uint64_t end, Fn&& fn) {
  if (t.dense()) {
    fn(t.offset + begin, begin, end - begin);
    return;
  }
  // Only the first run may start inside a row; each later one starts a row, one pitch on
  // from the start of the row before (a pitched DMA segment walks hundreds of rows).
  const std::uint64_t row = t.row_bytes(), pitch = t.row_pitch();
  std::uint64_t address = t.address_of(begin);
  for (std::uint64_t at = begin; at < end;) {
    const std::uint64_t in_row = at % row;
    const std::uint64_t count = std::min(end - at, row - in_row);
    fn(address, at, count);
    at += count;
    address += pitch - in_row;
  }
}

inline std::string dependency_mode_name(DependencyMode m) { return json_name(m); }

struct Dependency {
  std::uint64_t producer = 0;
  DependencyMode mode = DependencyMode::Full;
  std::string granularity;  // staged only: "rows", "channels", "tiles", "batch"
};

struct Instruction {
  std::uint64_t id = 0;
  std::string op;                        // "load", "store", "relu", "add", "conv", ...
  std::uint32_t core = 0;                // global core index
  std::string engine;                    // engine slot that executes it
  std::vector<TensorOperand> inputs;
  std::vector<TensorOperand> outputs;
  nlohmann::json params = nlohmann::json::object();  // op-specific (kernel, stride, ...)
  std::vector<Dependency> deps;
  std::uint64_t line = 0;                // line in the trace file, for messages
};

// Largest stride, padding or kernel extent a trace's params may give: more than any
// layer needs, small enough that window arithmetic cannot overflow.
inline constexpr std::uint32_t kMaxWindowParam = 1u << 24;


}  // namespace npusim
