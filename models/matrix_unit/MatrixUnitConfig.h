#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/Cycles.h"
#include "sim/config/CoreSections.h"

namespace npusim {

// How the matrix unit's conv time is worked out (docs/fidelity.md): the fast tile pipeline, or
// the cycle-stepped reference that advances every buffer and bus one cycle at a time.
enum class MatrixTimingModel { Fast, CycleStepped };
NLOHMANN_JSON_SERIALIZE_ENUM(MatrixTimingModel, {{MatrixTimingModel::Fast, "fast"},
                                                 {MatrixTimingModel::CycleStepped, "cycle-stepped"}})

struct BusConfig {
  double bytes_per_cycle;
  Cycles latency;
};

// The master circuit's read port on the first storage circuit (NRAM), counted in requests as
// seed000 §3.4 counts them (¶103, ¶107, ¶109): a request carries at most `request_bytes`
// contiguous bytes and takes `request_cycles`. The defaults are assumptions (README.md).
struct MasterReadConfig {
  std::uint32_t request_bytes = 64;
  Cycles request_cycles = 1;
};

// The relay store of §1.5 (registers between NRAM and the first buffer, ¶111): a RAM request
// is written into it in `write_cycles`, and a data row is read out of it in `read_cycles`.
struct RelayTiming {
  Cycles write_cycles = 1;
  Cycles read_cycles = 1;
};

// The "matrix" section of a core (keys: MatrixUnitConfig.cpp).
struct MatrixUnitConfig {
  static constexpr const char* kSection = "matrix";
  std::uint32_t queue_depth;
  std::uint32_t slaves;                       // N slave circuits
  std::uint32_t cus_per_slave;                // Ncu
  std::uint32_t row_bytes;                    // M, bytes per data row
  std::uint32_t first_buffer_rows;            // L1
  std::uint32_t second_buffer_rows;           // L2
  std::uint32_t third_buffer_bytes;
  std::uint32_t third_buffer_depth;           // tiles of results the third buffer holds (1 = serial tiles)
  std::vector<std::uint32_t> pci_candidates;  // bytes, largest first
  std::uint32_t pci_padding_tolerance;        // bytes; see models/matrix_unit
  std::uint32_t co_block;                     // output channels per outer round
  Cycles mac_latency;
  BusConfig broadcast_bus;
  BusConfig distribution_bus;
  BusConfig write_back;                       // third buffer -> NRAM (the result-storage path)
  double readout_bytes_per_cycle = 64;        // per slave: third-buffer bytes the readout (cw -> wc, filter) reads
  bool result_requantize;                     // the readout path can requantize int32 -> int8
  MatrixTimingModel timing_model;
  bool relay_enabled;
  std::uint32_t relay_bytes;
  MasterReadConfig nram_read;                 // the master's requests that form data rows
  RelayTiming relay;
};

// MACs per cycle with every CU busy on full data rows of `element_bytes` elements:
// one slave's share (Ncu x M / element size), and the whole unit's (x N).
inline double slave_peak_macs_per_cycle(const MatrixUnitConfig& cfg, std::uint32_t element_bytes = 1) {
  return double(cfg.cus_per_slave) * (cfg.row_bytes / element_bytes);
}
inline double peak_macs_per_cycle(const MatrixUnitConfig& cfg, std::uint32_t element_bytes = 1) {
  return cfg.slaves * slave_peak_macs_per_cycle(cfg, element_bytes);
}

// The rules between its keys (Pci candidates, L1 >= Ncu, relay size), for the
// loader (at the section of each core kind) and for the Wfold planner alike.
void check_matrix_unit_config(const MatrixUnitConfig& cfg, const SectionPlace& place);

// Its keys, defaults and checks, for the engine registration.
CoreSection matrix_unit_config_section();

}  // namespace npusim
