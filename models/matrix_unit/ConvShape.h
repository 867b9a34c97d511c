#pragma once
#include <cstdint>
#include <string>

#include "sim/tensor/WindowGeometry.h"

namespace npusim {

// One convolution layer as the seed writes it (seed000 §2): input [n hi wi ci] (NHWC),
// kernel [co kh kw ci], output [n ho wo co], strides sh/sw and explicit zero padding.
// Channel counts are in elements; element_bytes converts them to the byte sizes the seed
// reasons in (Pci, M and the padding rules are all in bytes).
// The window (sizes, kernel, strides, padding, output size) is the shared WindowGeometry.
struct ConvShape : WindowGeometry {
  std::uint32_t ci = 0, co = 0;
  std::uint32_t element_bytes = 1;  // 1 = int8, 4 = float32

  // Multiply-accumulates formula (1) needs, counted in elements.
  std::uint64_t useful_macs() const;
  std::string to_string() const;
};

// Throws InputError (location = the offending key) when the shape cannot describe a
// convolution: zero sizes, a kernel larger than the padded input, element size not 1/2/4.
void validate_conv_shape(const ConvShape& shape);

// Parses "hi=56,wi=56,ci=64,co=64,kh=3,kw=3,sh=1,sw=1,pad=1" into a validated shape.
// Keys: n hi wi ci co kh kw sh sw; k (= kh and kw); stride (= sh and sw);
// pad=P (all four sides) or pad=T,B,L,R (four numbers; the bare numbers after pad= belong
// to it); pad_top pad_bottom pad_left pad_right; dtype=int8|float32|... (sets element_bytes)
// or element_bytes=1|2|4. hi, wi, ci, co, kh and kw are required; n defaults to 1,
// strides to 1, padding to 0, dtype to int8. Throws InputError naming the key and reason.
ConvShape parse_conv_spec(const std::string& spec);

}  // namespace npusim
