#pragma once
#include <cstdint>
#include <string>

namespace npusim {

// One convolution layer as the seed writes it (seed000 §2): input [n hi wi ci] (NHWC),
// kernel [co kh kw ci], output [n ho wo co], strides sh/sw and explicit zero padding.
// Channel counts are in elements; element_bytes converts them to the byte sizes the seed
// reasons in (Pci, M and the padding rules are all in bytes).
struct ConvShape {
  std::uint32_t n = 1;
  std::uint32_t hi = 0, wi = 0, ci = 0, co = 0;
  std::uint32_t kh = 0, kw = 0;
  std::uint32_t sh = 1, sw = 1;
  std::uint32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::uint32_t element_bytes = 1;  // 1 = int8, 4 = float32

  std::uint32_t padded_hi() const { return pad_top + hi + pad_bottom; }
  std::uint32_t padded_wi() const { return pad_left + wi + pad_right; }
  // True output size (formula (1) with padding): floor((padded - k) / s) + 1.
  std::uint32_t ho() const { return (padded_hi() - kh) / sh + 1; }
  std::uint32_t wo() const { return (padded_wi() - kw) / sw + 1; }
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
