#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/matrix_unit/ConvShape.h"

namespace npusim {

// Control registers 208 of state machine 206 (seed003 §1.4). Tables 1-3 of the
// patent lost their bodies, so each row is one `ml_set` instruction naming its
// register; P1-P10 are the parameters the text names, the rest are npusim's
// extensions (batch and padding), which default to a single unpadded image.
enum class ControlRegister {
  IfmX,          // P1  Table 1: x dimension of image data
  IfmY,          // P2  Table 1: y dimension of image data
  IfmComponents, // P3  Table 1: number of components
  IfmStride,     // P4  Table 1: memory stride for accessing image data (read as the conv stride)
  IfmDepthBits,  // P5  Table 1: depth of components, 8 or 32 bits
  Filters,       // P6  Table 2: number of filters
  FilterX,       // P7  Table 2: filter x dimension
  FilterY,       // P8  Table 2: filter y dimension
  OutBase,       // P9  Table 3: base address of output data (DRAM byte offset)
  IfmBase,       // P10 host: address of the image
  WeightBase,    // P10 host: address of the filter weights
  IfmBatch,      // extension: images (n)
  IfmStrideY,    // extension: vertical stride when it differs from P4 (0 = same)
  PadTop,        // extension: zero padding
  PadBottom,
  PadLeft,
  PadRight,
  AutoFetch,      // extension (¶[0051]): 1 = the state machine launches the next tile's fetches itself
  TilePositions,  // extension (¶[0051]): positions per tile, the walk auto-fetch follows
  TileFilters,    // extension (¶[0051]): filters per block
  Count
};

struct ControlRegisterInfo {
  const char* name;     // what `ml_set` calls it
  const char* source;   // "Table 1 (P1)", "extension"
  std::optional<std::uint64_t> reset;  // value before any ml_set; none = must be set
  const char* meaning;
};

constexpr std::size_t kControlRegisters = static_cast<std::size_t>(ControlRegister::Count);
const std::array<ControlRegisterInfo, kControlRegisters>& control_register_table();
std::optional<ControlRegister> control_register_named(const std::string& name);
std::vector<std::string> control_register_names();

class ControlRegisters {
 public:
  ControlRegisters();
  void set(ControlRegister r, std::uint64_t value) { values_[index(r)] = value; }
  std::uint64_t get(ControlRegister r) const { return values_[index(r)].value_or(0); }
  // Registers that must be set and are not, by name.
  std::vector<std::string> missing() const;
  bool complete() const { return missing().empty(); }
  // The convolution the registers describe (call once complete).
  ConvShape conv_shape() const;
  std::uint32_t element_bytes() const { return std::uint32_t(get(ControlRegister::IfmDepthBits) / 8); }

 private:
  static std::size_t index(ControlRegister r) { return static_cast<std::size_t>(r); }
  std::array<std::optional<std::uint64_t>, kControlRegisters> values_;
};

}  // namespace npusim
