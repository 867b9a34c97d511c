#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "models/controller/InstructionSource.h"
#include "apps/compiler/emit/DramPlacement.h"
#include "apps/compiler/tiling/LayerTiler.h"
#include "apps/compiler/planning/SplitPlanner.h"
#include "apps/frontend/workload/TensorLiveness.h"
#include "apps/compiler/emit/TensorWrites.h"
#include "apps/frontend/workload/Workload.h"
#include "sim/config/HardwareConfig.h"
#include "sim/trace/IdRuns.h"
#include "sim/trace/TraceHeader.h"

namespace npusim {

// One layer after planning: its tiling and where its tensors live in DRAM.
struct CompiledLayer {
  Layer layer;
  LayerTiling tiling;
  std::vector<DramTensor> inputs;            // one per input tensor (NHWC)
  std::vector<int> producers;                // layer index per input, -1 for a network input
  std::uint64_t weights_offset = 0;          // the first copy of the weights
  // Per memory, the copy of the weights there; one entry when the memories are not separate.
  std::vector<std::uint64_t> weight_copies;
  std::uint64_t packed_weights_offset = 0;   // sparse layers: the compressed weights
  DramTensor output;
  DramTensor kv_cache;                       // matmul: the cached rows of B (decode), one region
  std::vector<int> overwrites;               // dead outputs (layers) whose DRAM its output takes
  LayerSplit split;                          // how its cores share it, and its tensors' tags
  std::uint64_t input_bytes = 0, weight_bytes = 0, output_bytes = 0;  // whole batch
};

// What a layer's instructions move, counted as they are emitted.
struct LayerTraffic {
  // Per cluster: load/store bytes to DRAM channels of its own memory, and of another cluster's.
  std::vector<std::uint64_t> dram_local, dram_remote;
  // Model-ci partial sums by the level they are exchanged through: kept in the
  // receiving core's NRAM, its cluster's cache, another cluster's cache, DRAM.
  std::uint64_t exchange_nram = 0, exchange_cache = 0, exchange_remote_cache = 0, exchange_dram = 0;
};

// Compiles a workload into instructions lazily: all planning (tiling, DRAM map,
// bindings) happens in the constructor, and `next` then produces one band of work
// per core at a time, so memory does not grow with the number of instructions.
// Ids are 0, 1, 2, ... and each layer's instructions form one contiguous id range.
class TraceEmitter : public InstructionSource {
 public:
  TraceEmitter(const Workload& workload, const HardwareConfig& hw, const SplitOptions& split = {});
  TraceEmitter(const TraceEmitter&) = default;

  bool next(Instruction& out) override;

  const Workload& workload() const { return w_; }
  const std::vector<CompiledLayer>& layers() const { return layers_; }
  // A region per tensor did not fit: dead tensors' DRAM holds later ones (place_tensors).
  bool reuses_dram() const { return dram_.reusing(); }
  // Functional bindings: the network input and weights (random or .npy) in, every layer out.
  const TraceHeader& header() const { return header_; }
  // Layer that emitted instruction `id` (which must have been emitted already).
  std::size_t layer_of(std::uint64_t id) const;
  const LayerTraffic& traffic(std::size_t layer) const { return traffic_.at(layer); }
  // Whether instruction `id` moves or adds partial sums of a model-ci reduction.
  bool in_reduction(std::uint64_t id) const { return reduction_ids_.contains(id); }

 private:
  static constexpr std::int64_t kNone = -1;
  struct CoreState {
    std::uint64_t first_tile = 0, end_tile = 0;  // this layer's tiles (image * bands + band)
    std::uint64_t emitted = 0;                   // tiles emitted in this layer (picks the slot)
    std::size_t share = 0;                       // index in the layer's cores (its channel share)
    std::uint64_t rotation = 0;                  // model-co: the band it starts at
    std::int64_t acc_writer = kNone;             // model-ci: last conv or add into the current slot's sums
    std::array<std::int64_t, 2> recv_reader{kNone, kNone};    // add that last read each slot's received sums
    std::array<std::int64_t, 2> exchange_reader{kNone, kNone};  // load that last read each exchange slot
    std::vector<std::int64_t> cache_fence;  // reads of its cluster's cache slots under the previous layout
    bool loaded_ifmap = false;
    bool wrote_output = false;                   // this layer's output, on this core
    std::array<std::int64_t, 2> in_reader{kNone, kNone}, acc_reader{kNone, kNone}, out_reader{kNone, kNone};
    std::array<std::int64_t, 2> wram_reader{kNone, kNone};
    std::uint32_t wram_half = 0;                 // half that receives the next block
    std::uint32_t block_half = 0;                // half holding the current block (2 = all of WRAM)
    std::int64_t weights = kNone;                // current weight load
    std::int64_t b_run = -1;                     // matmul: the (image, head, block) run whose B is in WRAM
    std::int64_t last_store = kNone;             // NRAM is free once it has finished
    // Its store DMA's latest stores, as many as it keeps in flight: those may land after
    // the last one; every older store has retired, so readers of DRAM wait for these.
    std::deque<std::int64_t> unretired_stores;
    std::size_t store_slots = 1;  // its store DMA's max_outstanding
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
    std::pair<std::uint64_t, std::uint64_t> held_bytes;  // the output bytes it writes
  };

  void plan(const HardwareConfig& hw, const SplitOptions& split);
  void place_tensors(const HardwareConfig& hw);
  void release_dead_tensors(std::size_t reader);
  void place_exchange_slots(const HardwareConfig& hw);
  void forget_placement();
  void plan_overwrites();
  void place_weights(CompiledLayer& c);
  // The copy of the layer's weights in the memory of `core`'s cluster.
  std::uint64_t weights_at(std::uint32_t core) const;
  static constexpr std::uint64_t kNoCopy = ~std::uint64_t(0);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> row_runs(const CompiledLayer& c, bool reading) const;
  // Model-ci partial sums go through the off-core caches: the output's tag stores them
  // there (store `cluster`) and two slots per core of the cluster fit its cache.
  bool partials_in_cache(const CompiledLayer& c) const;
  std::vector<DramChunk> local_first(std::uint32_t core, std::vector<DramChunk> pieces) const;
  // Bytes [begin, end) (element order) of the layer's input `input`.
  struct InputBytes {
    std::size_t input = 0;
    std::uint64_t begin = 0, end = 0;
  };
  struct WindowPiece {
    std::uint64_t address = 0, offset = 0;  // DRAM address, and offset in the dense NRAM copy
    std::vector<std::uint64_t> shape;
    std::uint64_t pitch = 0;
    bool starts = false;                    // holds the window's first byte
  };
  std::vector<WindowPiece> window_pieces(std::uint32_t core, const DramTensor& t, std::uint64_t row, std::uint64_t rows,
                                         std::uint32_t w, std::uint32_t c, std::uint32_t c0, std::uint32_t cn) const;
  void add_bindings();
  void start_layer();
  void emit_step();
  void emit_weights(std::uint32_t core, CoreState& cs);
  // The WRAM region the next weight block goes to, and what must have read it first.
  TensorOperand next_wram_block(CoreState& cs, std::vector<std::int64_t>& readers);
  // Matmul: the head's block of B that tile `tile` multiplies by (rows of the KV cache
  // first), loaded from where its producer stored it.
  void emit_matmul_weights(std::uint32_t core, CoreState& cs, std::uint64_t tile);
  void emit_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile);
  // Instructions that wrote a band's bytes in NRAM, each with the mode the piece of a
  // load or store that starts the band may follow it in (staged: row by row).
  using BandWriters = std::vector<std::pair<std::uint64_t, DependencyMode>>;
  // Loads of `pieces` into NRAM at `at` (after `reader` has read it), appended to `loads`;
  // a layer's first loads on a core wait for its producers and for the core's last store.
  void emit_band_loads(std::uint32_t core, CoreState& cs, const std::vector<WindowPiece>& pieces, std::uint64_t at,
                       std::int64_t reader, bool row_by_row, const InputBytes& bytes, BandWriters& loads);
  // Concat (pure data movement): per input, its band rows into a region of the slot, then
  // stored into the input's channels of the output.
  void emit_concat_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile);
  // Model-ci (seed002 Example 1): the partial sums of one band reduced pairwise between
  // the layer's cores through the exchange level, then requantized and stored by the first.
  void emit_reduction(std::uint64_t tile);
  // Records a store DMA instruction of a core (its last store, and the ones still in flight).
  static void remember_store(CoreState& cs, std::int64_t id);
  void emit_band_store(std::uint32_t core, CoreState& cs, const BandWriters& writers, std::uint64_t out_at,
                       std::uint32_t slot, std::uint64_t tile, std::uint32_t first_co, std::uint32_t co);
  // Where `sender` leaves partial sums of `slot` for a core of `receiver_cluster`.
  TensorOperand exchange_slot(std::uint32_t sender, std::uint32_t slot, const std::vector<std::uint64_t>& shape) const;
  void count_dram(const Instruction& inst);
  // Shader layers (seed003): the control registers, then fetch / multiply / return per tile.
  void emit_shader_setup(std::uint32_t core);
  void emit_shader_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile);
  void release_return(CoreState& cs);
  void wait_for_producers(Instruction& inst) const;
  // `inst` reads `bytes` from DRAM: it depends on every instruction that wrote them.
  void wait_for_writers(Instruction& inst, const InputBytes& bytes) const;
  // Instruction `id` wrote bytes [begin, end) of the current layer's output.
  void record_write(std::uint64_t id, std::uint64_t begin, std::uint64_t end);
  // Instruction `id` read the layer's input `input` from DRAM.
  void record_read(std::uint64_t id, std::size_t input);
  // `inst` is the first write of the layer's output on its core (on its engine, which
  // starts instructions in order): when the output takes dead tensors' DRAM, it waits
  // for every read and write of them.
  void wait_for_overwritten(Instruction& inst, CoreState& cs) const;
  // The layer is fully emitted: its writes can be looked up, and the writes of tensors it
  // was the last reader of are forgotten.
  void finish_writes();
  // Sparse layers (seed001): the weights compressed once, then per band: compress the
  // input rows into one of the core's two DRAM slots, and sparse_conv them.
  void emit_sparse_weights(std::uint32_t core);
  void emit_sparse_tile(std::uint32_t core, CoreState& cs, std::uint64_t tile);
  std::uint64_t push(Instruction inst);

  Workload w_;
  HardwareConfig hw_;
  std::vector<CompiledLayer> layers_;
  WorkloadLiveness liveness_;
  TraceHeader header_;
  DramPlacement dram_;
  DramTensor network_input_;
  std::vector<std::vector<std::int64_t>> final_stores_;  // per layer: the stores its readers wait for
  std::vector<TensorWrites> writes_;                     // per layer: who wrote its output, while it is read
  // Per layer, DRAM reads of its output, kept while a later output may take its bytes.
  std::vector<std::vector<std::uint64_t>> reads_;
  std::vector<std::int64_t> keep_until_;  // per layer: the last layer that reads or overwrites its output
  std::vector<std::uint64_t> first_ids_;                 // per started layer
  // Compressed input bands: two DRAM slots per core, shared by every sparse layer.
  std::uint64_t packed_slots_ = 0, packed_slot_bytes_ = 0;
  std::int64_t packed_weights_ = kNone;  // the current layer's weight compress
  // Model-ci exchange through DRAM: two slots per core in its cluster's memory.
  std::vector<std::uint64_t> exchange_slots_;
  std::uint64_t exchange_slot_bytes_ = 0;
  std::uint64_t cache_slot_bytes_ = 0;  // size of a cache slot in the current layout
  bool exchange_in_cache_ = false;      // the current layer exchanges through the cluster caches
  std::vector<LayerTraffic> traffic_;
  IdRuns reduction_ids_;

  std::deque<Instruction> pending_;
  std::vector<CoreState> cores_;
  std::size_t layer_ = 0;
  std::uint32_t block_ = 0;
  std::uint64_t step_ = 0, steps_ = 0;
  bool layer_started_ = false;
  std::uint64_t next_id_ = 0;
};

}  // namespace npusim
