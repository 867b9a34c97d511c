#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "apps/compiler/emit/ClusterCachePlacement.h"
#include "apps/compiler/emit/CompiledLayer.h"
#include "apps/compiler/emit/DramPlacement.h"
#include "apps/compiler/emit/RunLayout.h"
#include "apps/compiler/emit/TensorWrites.h"
#include "sim/config/HardwareConfig.h"
#include "sim/trace/IdRuns.h"
#include "sim/trace/Instruction.h"
#include "sim/trace/TraceHeader.h"

namespace npusim {

class Lowering;

inline constexpr std::int64_t kNone = -1;        // no instruction (depend ignores it)
inline constexpr std::uint64_t kNoCopy = ~std::uint64_t(0);  // no weight copy in that memory

// What every lowering keeps per core: its share of the current layer, the NRAM band
// slots' last readers (matrix, vector and concat layers reuse the same slots), and its
// store DMA's stores, which the next layer's readers wait for.
struct CoreState {
  std::uint64_t first_tile = 0, end_tile = 0;  // this layer's tiles (image * bands + band)
  std::uint64_t emitted = 0;                   // tiles emitted in this layer (picks the slot)
  std::size_t share = 0;                       // index in the layer's cores (its channel share)
  std::uint64_t rotation = 0;                  // model-co: the band it starts at
  bool loaded_ifmap = false;
  bool wrote_output = false;                   // this layer's output, on this core
  std::array<std::int64_t, 2> in_reader{kNone, kNone}, acc_reader{kNone, kNone}, out_reader{kNone, kNone};
  std::int64_t last_store = kNone;             // NRAM is free once it has finished
  // Its store DMA's latest stores, as many as it keeps in flight: those may land after
  // the last one; every older store has retired, so readers of DRAM wait for these.
  std::deque<std::int64_t> unretired_stores;
  std::size_t store_slots = 1;  // its store DMA's max_outstanding
};

// A lowering's own state for one compiled workload (its per-core vectors, its DRAM
// slots), made by Lowering::make_state and kept by the EmitContext.
class LoweringState {
 public:
  virtual ~LoweringState() = default;
};

// Bytes [begin, end) (element order) of the layer's input `input`.
struct InputBytes {
  std::size_t input = 0;
  std::uint64_t begin = 0, end = 0;
};

// The DRAM side of one move of a band window, and where it goes in the dense NRAM copy.
struct WindowPiece {
  std::uint64_t address = 0, offset = 0;  // DRAM address, and offset in the dense NRAM copy
  std::vector<std::uint64_t> shape;
  std::uint64_t pitch = 0;
  bool starts = false;                    // holds the window's first byte
  std::optional<std::uint32_t> cache;     // kept in this cluster's cache (`address` is an offset in it)
};
// The memory side of a piece as an operand: DRAM, or the cluster cache that keeps it.
TensorOperand memory_operand(const WindowPiece& piece);

// Instructions that wrote a band's bytes in NRAM, each with the mode the piece of a
// load or store that starts the band may follow it in (staged: row by row).
using BandWriters = std::vector<std::pair<std::uint64_t, DependencyMode>>;

// Output rows [row0, row0 + rows) of one image: a band, or part of one (row-stationary's psum rows).
struct OutputRows {
  std::uint32_t image = 0, row0 = 0, rows = 0;
};

// One NRAM band slot of the current layer's tiling: its index and where its regions start.
struct BandSlot {
  std::uint32_t index = 0;
  std::uint64_t base = 0, acc_at = 0, out_at = 0;
};

// What every lowering shares while a workload becomes instructions: the compiled layers
// and their DRAM placement, instruction ids, the producers and writers reads wait for,
// band loads and stores, and the shared per-core state. Lowerings keep their own state
// in a LoweringState reached through state().
class EmitContext {
 public:
  // Places the layers' tensors in DRAM and binds the workload's data.
  EmitContext(const Workload& workload, const HardwareConfig& hw, std::vector<CompiledLayer> layers);

  const Workload& workload() const { return w_; }
  const HardwareConfig& hw() const { return hw_; }
  const std::vector<CompiledLayer>& layers() const { return layers_; }
  const TraceHeader& header() const { return header_; }
  DramPlacement& dram() { return dram_; }
  const DramPlacement& dram() const { return dram_; }
  LoweringState* state(const Lowering& lowering) const;

  // ---- Where emission is: the current layer, weight block and step ----
  const CompiledLayer& layer() const { return layers_[layer_]; }
  std::size_t layer_index() const { return layer_; }
  std::uint32_t block() const { return block_; }
  std::uint64_t step() const { return step_; }
  bool done() const { return layer_ >= layers_.size(); }
  // Deals `tiles` (image-major bands) to the layer's cores; returns the steps it takes.
  std::uint64_t start_layer(std::uint64_t tiles);
  // The next step of the layer, over `passes` weight blocks; false once it is done.
  bool next_step(std::uint64_t steps, std::uint32_t passes);
  // The layer is fully emitted: its readers' waits are gathered and the next begins.
  void finish_layer();

  CoreState& core(std::uint32_t k) { return cores_[k]; }
  std::uint32_t cores() const { return std::uint32_t(cores_.size()); }
  LayerTraffic& traffic() { return traffic_[layer_]; }
  const LayerTraffic& traffic(std::size_t layer) const { return traffic_.at(layer); }
  std::size_t layer_of(std::uint64_t id) const;  // the layer that emitted instruction `id`
  // Instruction `id` moves or adds partial sums of a reduction (the run report counts them).
  void mark_reduction(std::uint64_t id) { reduction_ids_.add(id); }
  bool in_reduction(std::uint64_t id) const { return reduction_ids_.contains(id); }

  // ---- Instructions ----
  // Numbers `inst`, counts its DRAM traffic, checks its operands and queues it.
  std::uint64_t push(Instruction inst);
  bool pop(Instruction& out);  // the oldest queued instruction; false when none is queued
  // A layer's first read of its input on a core waits for every core's last store of
  // each producer layer (the data is in DRAM).
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
  // Records a store DMA instruction of a core (its last store, and the ones still in flight).
  static void remember_store(CoreState& cs, std::int64_t id);

  // ---- DRAM windows, band loads and stores (BandTransfers.cpp) ----
  // The copy of the layer's weights in the memory of `core`'s cluster.
  std::uint64_t weights_at(std::uint32_t core) const;
  std::vector<DramChunk> local_first(std::uint32_t core, std::vector<DramChunk> pieces) const;
  std::vector<WindowPiece> window_pieces(std::uint32_t core, const DramTensor& t, std::uint64_t row, std::uint64_t rows,
                                         std::uint32_t w, std::uint32_t c, std::uint32_t c0, std::uint32_t cn) const;
  // The next band slot of `cs`, with `inputs` input streams in front of its sums.
  BandSlot next_slot(CoreState& cs, std::size_t inputs) const;
  BandSlot band_slot(std::uint32_t index, std::size_t inputs) const;
  // Loads of `pieces` into NRAM at `at` (after `reader` has read it), appended to `loads`;
  // a layer's first loads on a core wait for its producers and for the core's last store.
  void emit_band_loads(std::uint32_t core, const std::vector<WindowPiece>& pieces, std::uint64_t at,
                       std::int64_t reader, bool row_by_row, const InputBytes& bytes, BandWriters& loads);
  // The band's window of the layer's first `inputs` inputs (channels [c0, c0 + cn)) into the slot.
  BandWriters load_band(std::uint32_t core, const BandSlot& slot, const BandWindow& window, std::uint32_t image,
                        std::size_t inputs, std::uint32_t c0, std::uint32_t cn, bool row_by_row);
  void emit_band_store(std::uint32_t core, const BandWriters& writers, std::uint64_t out_at, std::uint32_t slot,
                       std::uint64_t tile, std::uint32_t first_co, std::uint32_t co);
  void emit_rows_store(std::uint32_t core, const BandWriters& writers, std::uint64_t out_at, std::uint32_t slot,
                       const OutputRows& out, std::uint32_t first_co, std::uint32_t co);
  // The layer's weights [first_co, first_co + count) (channels [first_ci, first_ci + ci)
  // of each) loaded to `to` after `readers`; `weights` becomes the last load.
  // Gives the number of loads.
  std::size_t emit_weights(std::uint32_t core, const TensorOperand& to, const std::vector<std::int64_t>& readers,
                           std::pair<std::uint32_t, std::uint32_t> co, std::pair<std::uint32_t, std::uint32_t> ci,
                           std::int64_t& weights);

  // ---- Weight blocks the cores of a data-parallel layer share (SharedReads.cpp) ----
  // Whether `c`'s cores take each weight block from one DRAM read, replicated by the fabric.
  bool shares_weights(const CompiledLayer& c) const;
  // How the layer's cores get its weights, for the report.
  std::string weight_sharing(const CompiledLayer& c) const;
  // Whether the cores of a cluster take each band of a model-co layer's input from one
  // read (they read the same band at the same step).
  bool shares_bands() const;

 private:
  void place_tensors();                  // TensorPlacement.cpp
  void place_weights(CompiledLayer& c, std::size_t index);
  bool spread_weights(CompiledLayer& c, std::size_t index);
  // The core whose read of the current weight block the others' copies come from.
  std::uint32_t weight_lead(std::uint32_t core);
  // Before pushing piece `k` of the block on its core: a copy of the lead's piece k.
  void share_weight_piece(Instruction& load, std::size_t k) const;
  // After: the lead's piece is recorded, and the core's cluster has the block.
  void shared_piece_pushed(std::uint32_t core, std::uint64_t id);
  // The reads of the band window `pieces` by the first core of `core`'s cluster to load
  // it in this weight block of the layer; `core` becomes that core if none has.
  struct SharedBand {
    std::uint32_t lead = 0;
    std::vector<std::int64_t> reads;
  };
  SharedBand& shared_band(std::uint32_t core, const std::vector<WindowPiece>& pieces);
  void release_dead_tensors(std::size_t reader);
  void forget_placement();
  // `by_cluster`: each run names the cluster whose cores take it, not that cluster's memory.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> row_runs(const CompiledLayer& c, bool reading,
                                                                bool by_cluster = false) const;

  std::vector<std::pair<std::uint64_t, std::uint32_t>> activation_runs(const CompiledLayer* producer,
                                                                       const CompiledLayer* reader, bool chunkable,
                                                                       std::uint64_t rows, std::uint64_t row_bytes) const;
  FabricRates fabric() const;  // what the DRAM channels and inter-cluster links serve
  FabricLoad weight_load(const CompiledLayer* c) const;
  std::vector<double> weight_shares(const CompiledLayer& c) const;
  bool spreads_over_links(const CompiledLayer& c) const;
  std::vector<RowAccess> row_accesses(const CompiledLayer* c, bool reading, std::uint64_t rows,
                                      std::uint64_t row_bytes) const;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> fc_input_runs(const CompiledLayer& reader) const;
  // What placing the layers in order learns: whether each tensor may be cut into runs,
  // its first reader, and where each placed tensor is (its layer, -1 for the input).
  struct Placement {
    std::map<std::string, bool> chunkable;
    std::map<std::string, const CompiledLayer*> first_reader;
    std::map<std::string, std::pair<int, DramTensor>> where;
    const CompiledLayer* reader_of(const std::string& name) const;
  };
  void place_layer(std::size_t i, Placement& p);
  // Layer `c`'s output kept in the cluster caches (ClusterCachePlacement.h), when its first
  // reader's tag stores it in `cluster` and every cache has room for its run; else none.
  std::optional<DramTensor> kept_in_caches(const CompiledLayer& c, Placement& p);
  std::uint64_t partial_sum_reserve() const;  // cache bytes kept for model-ci partial sums
  void make_states();
  void plan_overwrites();
  void add_bindings();                   // Bindings.cpp
  std::size_t bind_input(const std::string& name, const DramTensor& at, std::vector<std::uint64_t> shape,
                  const std::string& file, KernelDilation dilation, double zeros,
                  const std::vector<std::uint64_t>& copies = {},
                  const std::shared_ptr<const std::vector<std::int8_t>>& values = nullptr);
  void bind_layer(const CompiledLayer& c);
  void bind_offline_weights(const CompiledLayer& c, std::size_t weights);
  void start_traffic(LayerTraffic& t) const;
  void count_transfer(const Instruction& inst, LayerTraffic& traffic) const;
  void count_dram(const Instruction& inst);
  void finish_writes();

  Workload w_;
  HardwareConfig hw_;
  std::vector<CompiledLayer> layers_;
  TraceHeader header_;
  DramPlacement dram_;
  ClusterCachePlacement caches_;
  DramTensor network_input_;
  std::uint64_t seed_ = 0;                               // the next generated binding's seed
  std::vector<std::pair<const Lowering*, std::unique_ptr<LoweringState>>> states_;
  std::vector<std::vector<std::int64_t>> final_stores_;  // per layer: the stores its readers wait for
  std::vector<TensorWrites> writes_;                     // per layer: who wrote its output, while it is read
  // Per layer, DRAM reads of its output, kept while a later output may take its bytes.
  std::vector<std::vector<std::uint64_t>> reads_;
  std::vector<std::int64_t> keep_until_;  // per layer: the last layer that reads or overwrites its output
  std::vector<std::uint64_t> first_ids_;  // per started layer
  std::vector<LayerTraffic> traffic_;
  IdRuns reduction_ids_;
  // The weight block being shared: its layer and block, the core whose DRAM reads the
  // others copy, those reads, and the clusters the block has reached.
  struct SharedBlock {
    std::size_t layer = ~std::size_t(0);
    std::uint32_t block = 0, lead = 0;
    std::vector<std::int64_t> reads;
    std::vector<bool> reached;
  } shared_;
  // Model-co band windows read in this layer, by (cluster, weight block, first DRAM address, pieces).
  std::size_t shared_bands_layer_ = ~std::size_t(0);
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t, std::size_t>, SharedBand> shared_bands_;

  std::deque<Instruction> pending_;
  std::vector<CoreState> cores_;
  std::size_t layer_ = 0;
  std::uint32_t block_ = 0;
  std::uint64_t step_ = 0;
  std::uint64_t next_id_ = 0;
};

// Weights as the units read them: the kernel after dilation (zero taps between real ones).
std::vector<std::uint64_t> weight_shape(const Layer& l, const LayerTiling& t, std::uint32_t co, std::uint32_t ci);

}  // namespace npusim
