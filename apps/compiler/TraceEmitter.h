#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "models/controller/InstructionSource.h"
#include "apps/compiler/DramPlacement.h"
#include "apps/compiler/LayerTiler.h"
#include "apps/compiler/Workload.h"
#include "sim/config/HardwareConfig.h"
#include "sim/trace/TraceHeader.h"

namespace npusim {

// One layer after planning: its tiling and where its tensors live in DRAM.
struct CompiledLayer {
  Layer layer;
  LayerTiling tiling;
  std::vector<DramTensor> inputs;            // one per input tensor (NHWC)
  std::vector<int> producers;                // layer index per input, -1 for a network input
  std::uint64_t weights_offset = 0;          // the first copy of the weights
  // Per memory, the copy of the weights there (seed002 §3.10: constants go to the local
  // memory of the cores that use them); one entry when the memories are not separate.
  std::vector<std::uint64_t> weight_copies;
  std::uint64_t packed_weights_offset = 0;   // sparse layers: the compressed weights
  DramTensor output;
  std::uint64_t input_bytes = 0, weight_bytes = 0, output_bytes = 0;  // whole batch
};

// Compiles a workload into instructions lazily: all planning (tiling, DRAM map,
// bindings) happens in the constructor, and `next` then produces one band of work
// per core at a time, so memory does not grow with the number of instructions.
// Ids are 0, 1, 2, ... and each layer's instructions form one contiguous id range.
class TraceEmitter : public InstructionSource {
 public:
  TraceEmitter(const Workload& workload, const HardwareConfig& hw);
  TraceEmitter(const TraceEmitter&) = default;

  bool next(Instruction& out) override;

  const Workload& workload() const { return w_; }
  const std::vector<CompiledLayer>& layers() const { return layers_; }
  // Functional bindings: the network input and weights (random or .npy) in, every layer out.
  const TraceHeader& header() const { return header_; }
  // Layer that emitted instruction `id` (which must have been emitted already).
  std::size_t layer_of(std::uint64_t id) const;
  // Counts the instructions by compiling a copy, for the progress bar.
  std::uint64_t count_instructions() const;

 private:
  static constexpr std::int64_t kNone = -1;
  struct CoreState {
    std::uint64_t first_tile = 0, end_tile = 0;  // this layer's tiles (image * bands + band)
    std::uint64_t emitted = 0;                   // tiles emitted in this layer (picks the slot)
    bool loaded_ifmap = false;
    std::array<std::int64_t, 2> in_reader{kNone, kNone}, acc_reader{kNone, kNone}, out_reader{kNone, kNone};
    std::array<std::int64_t, 2> wram_reader{kNone, kNone};
    std::uint32_t wram_half = 0;                 // half that receives the next block
    std::uint32_t block_half = 0;                // half holding the current block (2 = all of WRAM)
    std::int64_t weights = kNone;                // current weight load
    std::int64_t last_store = kNone;             // NRAM is free once it has finished
    std::array<std::int64_t, 2> packed_reader{kNone, kNone};  // sparse_conv that last read each compressed-band slot
    // Shader cores: per register group, the last readers of its image, weight and
    // result regions, the weight fetch it holds and that block's first filter.
    struct RegisterGroup {
      std::int64_t ifm_reader = kNone, weight_reader = kNone, result_reader = kNone, weights = kNone;
      std::int64_t filter_block = -1;
      bool fresh = true;  // no tile of this layer yet: the layout may differ from the last layer's
    };
    std::array<RegisterGroup, 2> groups;
    // The return of the last tile, held back until the next tile's fetch is queued:
    // fetch_ml runs in order, so an earlier return would hold that fetch behind its multiply.
    std::optional<Instruction> held_return;
    std::uint32_t held_group = 0;
  };

  void plan(const HardwareConfig& hw);
  void place_tensors(const HardwareConfig& hw);
  // The copy of the layer's weights in the memory of `core`'s cluster.
  std::uint64_t weights_at(std::uint32_t core) const;
  void add_bindings();
  void start_layer();
  void emit_step();
  void emit_weights(std::uint32_t core, CoreState& cs);
  void emit_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile);
  // Shader layers (seed003): the control registers, then fetch / multiply / return per tile.
  void emit_shader_setup(std::uint32_t core);
  void emit_shader_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile);
  void release_return(CoreState& cs);
  void wait_for_producers(Instruction& inst) const;
  // Sparse layers (seed001): the weights compressed once, then per band: compress the
  // input rows into one of the core's two DRAM slots, and sparse_conv them.
  void emit_sparse_weights(std::uint32_t core);
  void emit_sparse_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile);
  std::uint64_t push(Instruction inst);

  Workload w_;
  HardwareConfig hw_;
  std::vector<CompiledLayer> layers_;
  TraceHeader header_;
  DramPlacement dram_;
  DramTensor network_input_;
  static constexpr std::uint64_t kNoCopy = ~std::uint64_t(0);
  std::vector<std::vector<std::int64_t>> final_stores_;  // per layer, per core
  std::vector<std::uint64_t> first_ids_;                 // per started layer
  // Compressed input bands: two DRAM slots per core, shared by every sparse layer.
  std::uint64_t packed_slots_ = 0, packed_slot_bytes_ = 0;
  std::int64_t packed_weights_ = kNone;  // the current layer's weight compress

  std::deque<Instruction> pending_;
  std::vector<CoreState> cores_;
  std::size_t layer_ = 0;
  std::uint32_t block_ = 0;
  std::uint64_t step_ = 0, steps_ = 0;
  bool layer_started_ = false;
  std::uint64_t next_id_ = 0;
};

}  // namespace npusim
