#pragma once
#include <map>
#include <string>
#include <vector>

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/engine/Engine.h"
#include "models/fetch_ml/AddressGenerator.h"
#include "models/fetch_ml/ControlRegisters.h"
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
// when the tile is [positions, K]; ml_return sends results to NHWC addresses.
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
  FetchedTile expected_fetch(const Instruction& inst, const ConvShape& g, const MlTile& tile, bool ifm) const;
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
  } counters_;
};

const char* state_name(FetchMlStateMachine::State s);

}  // namespace npusim
