#pragma once
#include <vector>

#include "models/engine/Engine.h"
#include "models/fetch_ml/FetchMlStateMachine.h"
#include "models/shader_core/ShaderCoreConfig.h"
#include "models/shader_core/SimdDatapath.h"

namespace npusim {

class Scratchpad;

// The GPU-style shader core of seed003 (Fig. 2): instruction decoder 210 hands
// ml_matmul to the SIMD datapath 204, which reads its operands from register file
// 201 and writes the results back there. An ml_matmul waits, like a dependent
// arithmetic instruction after a load, until fetch_ml has filled the tile it reads
// (the trace dependency, ¶[0048]); the compiler alternates register groups so one
// group computes while fetch_ml fills the other (¶[0054]).
class ShaderCore : public Engine {
 public:
  ShaderCore(sc_core::sc_module_name name, EngineSetup setup, const ShaderCoreConfig& cfg);

  void connect(CoreWiring& wiring) override;

 protected:
  Work execute(const Instruction& inst) override;

 private:
  const FetchedTile& fetched(const Instruction& inst, std::size_t input) const;

  ShaderCoreConfig cfg_;
  SimdDatapath datapath_;
  Scratchpad* register_file_ = nullptr;
  const FetchMlStateMachine* state_machine_ = nullptr;
  struct Counters {
    std::uint64_t* useful_macs;
    std::uint64_t* issued_macs;
    std::uint64_t* mac_cycles;
    std::uint64_t* rf_read_bytes;
    std::uint64_t* rf_result_bytes;
  } counters_;
};

}  // namespace npusim
