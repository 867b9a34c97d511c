#include "models/matrix_unit/MatrixUnitEnergy.h"

#include "models/matrix_unit/MatrixUnitConfig.h"
#include "models/matrix_unit/WfoldMapping.h"

namespace npusim {

// Assumptions (models/matrix_unit/README.md, docs/energy.md):
// - every issued MAC slot, padding included, reads one data operand from its
//   slave's first buffer and one weight from its second buffer;
// - every slave keeps each broadcast row in its first buffer;
// - weight rows are read from WRAM by the slaves over their own links (the model
//   books no WRAM port time for them, so they are priced here);
// - requantizing a result on the result path costs what the vector unit's requant
//   charges for it: one lane op per byte of its widest operand, the int32 accumulator;
// - the relay (registers, §1.5) is priced per byte written and read; the third buffer per
//   accumulator byte read and written each compute cycle (issue 33).
EngineEnergy matrix_unit_energy(const CoreConfig& core) {
  const MatrixUnitConfig& m = core.block<MatrixUnitConfig>(MatrixUnitConfig::kSection);
  const std::uint64_t first = std::uint64_t(m.first_buffer_rows) * m.row_bytes;
  const std::uint64_t second = std::uint64_t(m.second_buffer_rows) * m.row_bytes;
  const std::uint64_t relay = m.relay_enabled ? m.relay_bytes : 0;
  EngineEnergy e;
  e.actions = {
      {"matrix", "issued_macs", {"mac", ""}},
      {"matrix", "issued_macs", {"register_file", "read", first, 1, true}},
      {"matrix", "issued_macs", {"register_file", "read", second, 1, true}},
      {"matrix", "broadcast_bytes", {"bus", "transfer"}},
      {"matrix", "broadcast_bytes", {"register_file", "write", first, double(m.slaves)}},
      {"matrix", "distribution_bytes", {"sram", "read", core.wram.capacity_bytes}},
      {"matrix", "distribution_bytes", {"bus", "transfer"}},
      {"matrix", "distribution_bytes", {"register_file", "write", second}},
      {"matrix", "requantized_results", {"vector", "lane_op", 0, double(WfoldPlan::kAccumulatorBytes)}},
      {"matrix", "relay_bytes_written", {"register_file", "write", relay}},
      {"matrix", "relay_bytes_read", {"register_file", "read", relay}},
      {"matrix", "third_buffer_bytes", {"register_file", "read", m.third_buffer_bytes}},
      {"matrix", "third_buffer_bytes", {"register_file", "write", m.third_buffer_bytes}},
  };
  e.parts = {{"mac", double(m.slaves) * m.cus_per_slave * m.row_bytes},
             {"register_file", (double(m.slaves) * double(first + second + m.third_buffer_bytes) + double(relay)) / 1024.0}};
  return e;
}

}  // namespace npusim
