#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/tensor/DType.h"

namespace npusim {

// What one count of a counter is, physically: an action of an energy class.
struct EnergyAction {
  std::string component_class;       // "mac", "sram", ...
  std::string action;                // "read"; empty for "mac": the executing instruction's operand type
  std::uint64_t capacity_bytes = 0;  // capacity-scaled classes: the memory's size
  double per_count = 1;              // actions per count (bytes per row, switches per Benes pass)
  bool per_operand_byte = false;     // also times the element size of the executing instruction's operands
  // >= 0: pJ of one action set by the hardware itself, not the energy table (a DRAM command
  // priced from its datasheet currents, models/banked_dram/CommandEnergy.h).
  double own_pj = -1;
};

// What a component is built of, for its area and leakage: `size` units of a class.
struct HardwarePart {
  std::string component_class;
  double size = 0;  // in the class's size unit (MAC units, KiB, engines, lanes, switches)
};

// An engine or memory of the chip, as the energy report lists it.
struct EnergyComponent {
  std::string name;  // "core0.matrix", "core0.nram", "dram.ch0"
  std::string kind;  // engine kind or memory kind
  bool memory = false;
  std::vector<HardwarePart> parts;
};

// Counts the actions of a run per group of instructions without touching the
// counters' hot paths: it holds pointers to the live counters and, each time an
// engine starts an instruction, books what the counters gained since the last
// start to the instruction that started then. Engines book every action of an
// instruction before they first wait (docs/energy.md), so the gains between two
// starts belong to the earlier one. Groups are the caller's (a workload's layers).
class EnergyLedger {
 public:
  struct Source {
    std::size_t component;  // index into components()
    EnergyAction action;
    const std::uint64_t* count;
    std::string what;       // counter name, for messages
  };
  struct Bucket {
    std::size_t group;
    DType dtype;
    std::vector<std::uint64_t> counts;  // per source
  };

  std::size_t add_component(EnergyComponent c);
  void add_source(std::size_t component, EnergyAction action, const std::uint64_t* count, std::string what);

  // The instruction starting now belongs to `group` and works on `dtype` operands.
  void switch_to(std::size_t group, DType dtype);
  // Books what is left to the current group; call once, after the run.
  void close();

  const std::vector<EnergyComponent>& components() const { return components_; }
  const std::vector<Source>& sources() const { return sources_; }
  const std::vector<Bucket>& buckets() const { return buckets_; }

 private:
  static constexpr std::size_t kDTypes = 6;
  void fold();

  std::vector<EnergyComponent> components_;
  std::vector<Source> sources_;
  std::vector<std::uint64_t> last_;        // each counter at the last switch
  std::vector<Bucket> buckets_;
  std::vector<std::array<std::int32_t, kDTypes>> index_;  // group -> dtype -> bucket, -1 = none yet
  std::size_t current_ = 0;
  bool started_ = false;
};

}  // namespace npusim
