#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/engine/Engine.h"
#include "models/fetch_ml/AddressGenerator.h"
#include "models/fetch_ml/ControlRegisters.h"
#include "models/fetch_ml/FetchCache.h"
#include "models/fetch_ml/FetchMlConfig.h"
#include "models/fetch_ml/TileParams.h"

namespace npusim {

class Scratchpad;

// What one fetch_ml left in the register file: the geometry it was fetched with, so
// the datapath can unroll a compact tile on its read path after the registers move on.
struct FetchedTile {
  ConvShape layer;
  InputRows rows;
  bool compact = false;   // rf_read: the image rows as fetched; else the unrolled [positions, K] matrix
  std::uint64_t bytes = 0;
};

// State machine 206 with control registers 208 and address generator 209 (seed003
// §1.4-1.5), the DMA-like hardware outside the shader core. ml_set writes a control
// register and touches no memory; fetch_ml walks the original image (or the filters)
// through the chip interconnect into a register-file tile, unrolling it on the way
// when the tile is [positions, K]; ml_return sends results to NHWC addresses. With a
// fetch-path cache, reads go through it (a fetch's hint says whether its lines stay),
// ml_preload brings a later tile's lines in, and in auto-fetch mode the state machine
// launches the fetches after a layer's first tile itself, following its walk.
class FetchMlStateMachine : public Engine {
 public:
  enum class State { Idle, Initialized, Fetching, Streaming, Done };

  tlm_utils::simple_initiator_socket<FetchMlStateMachine> dram_port;
  tlm_utils::simple_initiator_socket_optional<FetchMlStateMachine> cluster_port;
  tlm_utils::simple_initiator_socket<FetchMlStateMachine> register_file_port;  // the load path into the RF

  FetchMlStateMachine(sc_core::sc_module_name name, EngineSetup setup, const FetchMlConfig& cfg);

  void connect(CoreWiring& wiring) override;
  State state() const { return state_; }
  std::string state_label() const override;
  const ControlRegisters& registers() const { return registers_; }
  // The tile a fetch_ml left at register-file `offset`, or nullptr.
  const FetchedTile* fetched_at(std::uint64_t offset) const;

 protected:
  Work execute(const Instruction& inst) override;

 private:
  Work set_register(const Instruction& inst);
  Work fetch(const Instruction& inst);
  Work preload(const Instruction& inst);
  // The region a fetch or preload of `tile` must read, as the address generator walks it
  // (refusing any other), and the image rows it holds.
  struct Source {
    std::uint64_t offset = 0;
    std::vector<std::uint64_t> shape;
    InputRows rows;
  };
  Source expected_source(const Instruction& inst, const ConvShape& g, const MlTile& tile, bool ifm) const;
  FetchedTile expected_fetch(const Instruction& inst, const ConvShape& g, const MlTile& tile, bool ifm) const;
  // Auto-fetch (¶[0051]): a fetch the state machine launched must be the next of its walk.
  void check_auto(const Instruction& inst, const ConvShape& g, const MlTile& tile, bool ifm) const;
  void note_walk(const MlTile& tile, bool ifm);
  // Reads `t` from memory, through the cache when one is fitted (FetchPath.cpp); `memory_bytes`
  // gets the bytes memory delivered.
  Cycles read_source(const TensorOperand& t, std::uint8_t* data, Cycles start, bool allocate, CacheUse& use,
                     std::uint64_t& memory_bytes);
  // One contiguous run of a DRAM tensor through the cache; `issue` advances.
  Cycles cached_run(std::uint64_t address, std::uint64_t count, std::uint8_t* data, Cycles& issue, bool allocate,
                    CacheUse& use, std::uint64_t& memory_bytes);
  // Lines [first, end) from memory in request-sized pieces, filled into the cache when `allocate`.
  Cycles read_lines(std::uint64_t first, std::uint64_t end, std::uint8_t* bytes, Cycles& issue, bool allocate);
  // Functional runs: the fetched rows unrolled into the tile's [positions, K] matrix.
  std::uint8_t* unroll(const FetchedTile& fetched, const MlTile& tile, std::uint64_t bytes);
  Work return_results(const Instruction& inst);
  ConvShape initialized_layer(const Instruction& inst) const;
  // The layer the registers describe (refusing a fetch before they are set) and the instruction's tile.
  std::pair<ConvShape, MlTile> decode(const Instruction& inst) const;
  // Moves the whole tensor between memory and `data` in request-sized pieces; returns when the last is done.
  Cycles memory_transfer(tlm::tlm_command cmd, const TensorOperand& t, std::uint8_t* data, Cycles start);
  tlm::tlm_fw_transport_if<>& port_for(AddressSpace space);
  // Moves `bytes` between the register file and `data` over the load/return path.
  Cycles register_file_transfer(tlm::tlm_command cmd, std::uint64_t offset, std::uint64_t bytes, std::uint8_t* data,
                                Cycles earliest);
  void enter(State s) { state_ = s; }

  FetchMlConfig cfg_;
  ControlRegisters registers_;
  AddressGenerator address_generator_;
  State state_ = State::Idle;
  std::uint64_t returned_since_init_ = 0;  // result elements returned for the current registers
  FetchCache cache_;
  // The walk auto-fetch follows: the last image run fetched since the registers were set.
  std::optional<PositionRange> last_run_;
  Scratchpad* register_file_ = nullptr;
  std::map<std::uint64_t, FetchedTile> fetched_;  // by register-file offset
  std::vector<std::uint8_t> staging_;             // functional runs: data from memory
  std::vector<std::uint8_t> unrolled_;            // functional runs: the im2col tile on its way to the RF
  struct Counters {
    std::uint64_t* register_writes;
    std::uint64_t* fetches;
    std::uint64_t* ifm_bytes;
    std::uint64_t* weight_bytes;
    std::uint64_t* naive_im2col_bytes;
    std::uint64_t* rf_write_bytes;
    std::uint64_t* return_bytes;
    std::uint64_t* requests;
    std::uint64_t* memory_bytes;
    std::uint64_t* cache_hits;
    std::uint64_t* cache_misses;
    std::uint64_t* cache_hit_bytes;
    std::uint64_t* cache_fill_bytes;
    std::uint64_t* preloads;
    std::uint64_t* preload_bytes;
    std::uint64_t* auto_fetches;
  } counters_;
};

const char* state_name(FetchMlStateMachine::State s);

}  // namespace npusim
