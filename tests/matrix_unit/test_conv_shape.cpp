#include <catch2/catch.hpp>

#include "models/matrix_unit/ConvShape.h"
#include "sim/common/InputError.h"

using namespace npusim;

TEST_CASE("parse_conv_spec reads a ResNet layer with one padding value", "[matrix_unit]") {
  ConvShape s = parse_conv_spec("hi=56,wi=56,ci=64,co=64,kh=3,kw=3,sh=1,sw=1,pad=1");
  CHECK(s.n == 1);
  CHECK(s.hi == 56);
  CHECK(s.ci == 64);
  CHECK(s.kw == 3);
  CHECK(s.pad_top == 1);
  CHECK(s.pad_right == 1);
  CHECK(s.element_bytes == 1);
  CHECK(s.ho() == 56);
  CHECK(s.wo() == 56);
  CHECK(s.useful_macs() == 56ull * 56 * 64 * 64 * 9);
}

TEST_CASE("parse_conv_spec reads four paddings, shorthands and a dtype", "[matrix_unit]") {
  ConvShape s = parse_conv_spec("n=2, hi=7,wi=9,ci=3,co=5,k=3,stride=2,pad=0,1,2,3,dtype=float32");
  CHECK(s.n == 2);
  CHECK(s.kh == 3);
  CHECK(s.kw == 3);
  CHECK(s.sh == 2);
  CHECK(s.sw == 2);
  CHECK(s.pad_top == 0);
  CHECK(s.pad_bottom == 1);
  CHECK(s.pad_left == 2);
  CHECK(s.pad_right == 3);
  CHECK(s.element_bytes == 4);
  CHECK(s.ho() == (0 + 7 + 1 - 3) / 2 + 1);
  CHECK(s.wo() == (2 + 9 + 3 - 3) / 2 + 1);
}

TEST_CASE("parse_conv_spec rejects bad specs with the key and reason", "[matrix_unit]") {
  auto reason_for = [](const std::string& spec) -> std::string {
    try {
      parse_conv_spec(spec);
    } catch (const InputError& e) {
      return e.location() + ": " + e.reason();
    }
    return "accepted";
  };
  CHECK(reason_for("hi=5,wi=5,ci=3,co=4,kh=3,kw=3,colour=2").rfind("colour: unknown key", 0) == 0);
  CHECK(reason_for("wi=5,ci=3,co=4,kh=3,kw=3") == "hi: is required");
  CHECK(reason_for("hi=5,wi=5,ci=3,co=4,kh=3") == "kh: kh and kw (or k) are required");
  CHECK(reason_for("hi=5,wi=5,ci=x,co=4,k=3").rfind("ci: expected a non-negative integer", 0) == 0);
  CHECK(reason_for("hi=5,wi=5,ci=-3,co=4,k=3").rfind("ci: expected a non-negative integer", 0) == 0);
  CHECK(reason_for("hi=5,wi=5,ci=3,co=0,k=3") == "co: must be at least 1");
  CHECK(reason_for("hi=5,wi=5,ci=3,co=4,k=3,pad=1,2,3").rfind("pad: expected one value or four", 0) == 0);
  CHECK(reason_for("hi=2,wi=5,ci=3,co=4,k=3").rfind("kh: kernel height 3 exceeds padded input height 2", 0) == 0);
  CHECK(reason_for("hi=5,wi=5,ci=3,co=4,k=3,dtype=int7").rfind("dtype: unknown dtype", 0) == 0);
  CHECK(reason_for("hi=5,hi=6,wi=5,ci=3,co=4,k=3") == "hi: given twice");
  CHECK(reason_for("hi=5,,wi=5,ci=3,co=4,k=3").find("empty item") != std::string::npos);
  CHECK(reason_for("hi=5,wi=5,ci=3,co=4,k=3,pad=1") == "accepted");
}
