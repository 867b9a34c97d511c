#include "models/fetch_ml/ControlRegisters.h"

namespace npusim {

const std::array<ControlRegisterInfo, kControlRegisters>& control_register_table() {
  static const std::array<ControlRegisterInfo, kControlRegisters> table = {{
      {"ifm_x", "Table 1 (P1)", std::nullopt, "image width"},
      {"ifm_y", "Table 1 (P2)", std::nullopt, "image height"},
      {"ifm_components", "Table 1 (P3)", std::nullopt, "channels"},
      {"ifm_stride", "Table 1 (P4)", std::nullopt, "convolution stride (ambiguity A4: read as the conv stride)"},
      {"ifm_depth_bits", "Table 1 (P5)", std::nullopt, "bits per component: 8 (int8) or 32 (float32)"},
      {"filters", "Table 2 (P6)", std::nullopt, "number of filters"},
      {"filter_x", "Table 2 (P7)", std::nullopt, "filter width"},
      {"filter_y", "Table 2 (P8)", std::nullopt, "filter height"},
      {"out_base", "Table 3 (P9)", std::nullopt, "DRAM byte address of the output"},
      {"ifm_base", "host (P10)", std::nullopt, "DRAM byte address of the image"},
      {"weight_base", "host (P10)", std::nullopt, "DRAM byte address of the filters"},
      {"ifm_batch", "extension", 1, "images in the batch"},
      {"ifm_stride_y", "extension", 0, "vertical stride when it differs from ifm_stride; 0 = the same"},
      {"pad_top", "extension", 0, "zero rows above the image"},
      {"pad_bottom", "extension", 0, "zero rows below the image"},
      {"pad_left", "extension", 0, "zero columns left of the image"},
      {"pad_right", "extension", 0, "zero columns right of the image"},
      {"auto_fetch", "extension (¶[0051])", 0,
       "1: the state machine launches each next tile's fetches itself when the datapath frees a register group"},
      {"tile_positions", "extension (¶[0051])", 0, "output positions per tile: the walk auto-fetch follows"},
      {"tile_filters", "extension (¶[0051])", 0, "filters per block: the walk auto-fetch follows"},
  }};
  return table;
}

std::optional<ControlRegister> control_register_named(const std::string& name) {
  const auto& table = control_register_table();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (name == table[i].name) return static_cast<ControlRegister>(i);
  return std::nullopt;
}

std::vector<std::string> control_register_names() {
  std::vector<std::string> names;
  for (const auto& r : control_register_table()) names.push_back(r.name);
  return names;
}

ControlRegisters::ControlRegisters() {
  const auto& table = control_register_table();
  for (std::size_t i = 0; i < table.size(); ++i) values_[i] = table[i].reset;
}

std::vector<std::string> ControlRegisters::missing() const {
  std::vector<std::string> names;
  const auto& table = control_register_table();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (!values_[i]) names.push_back(table[i].name);
  return names;
}

ConvShape ControlRegisters::conv_shape() const {
  using R = ControlRegister;
  ConvShape s;
  s.n = std::uint32_t(get(R::IfmBatch));
  s.hi = std::uint32_t(get(R::IfmY));
  s.wi = std::uint32_t(get(R::IfmX));
  s.ci = std::uint32_t(get(R::IfmComponents));
  s.co = std::uint32_t(get(R::Filters));
  s.kh = std::uint32_t(get(R::FilterY));
  s.kw = std::uint32_t(get(R::FilterX));
  s.sw = std::uint32_t(get(R::IfmStride));
  s.sh = get(R::IfmStrideY) ? std::uint32_t(get(R::IfmStrideY)) : s.sw;
  s.pad_top = std::uint32_t(get(R::PadTop));
  s.pad_bottom = std::uint32_t(get(R::PadBottom));
  s.pad_left = std::uint32_t(get(R::PadLeft));
  s.pad_right = std::uint32_t(get(R::PadRight));
  s.element_bytes = element_bytes();
  return s;
}

}  // namespace npusim
