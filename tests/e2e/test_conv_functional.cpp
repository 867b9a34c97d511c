#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"
#include "reference/ReferenceConv.h"
#include "sim/tensor/Npy.h"

using namespace npusim;

namespace {

// Banded conv trace from bench/make_conv_layer_trace.py, with the inputs also
// dumped back out so the test sees exactly the bytes the chip computed on.
std::string banded_conv_trace(const std::string& dir, int h, int w, int ci, int co, int k, int band) {
  std::string trace = dir + "/conv.jsonl";
  std::string command = "python3 " + source_path("bench/make_conv_layer_trace.py") + " " + trace;
  for (int v : {h, w, ci, co, k, band}) command += " " + std::to_string(v);
  REQUIRE(std::system(command.c_str()) == 0);
  std::string text = read_text(trace);
  std::size_t eol = text.find('\n');
  auto header = nlohmann::json::parse(text.substr(0, eol));
  for (const auto& input : header.at("inputs")) {
    nlohmann::json copy = input;
    copy.erase("random_seed");
    copy["name"] = input.at("name").get<std::string>() + "_copy";
    header["outputs"].push_back(copy);
  }
  write_text(trace, header.dump() + text.substr(eol));
  return trace;
}

template <typename T>
std::vector<T> elements(const NpyArray& a) {
  std::vector<T> v(a.data.size() / sizeof(T));
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

}  // namespace

// The whole path: DMA loads of real bytes, the MatrixUnit engine running the
// Wfold datapath band by band, stores back to DRAM; compared with a plain conv.
TEST_CASE("functional banded conv through the chip equals the reference convolution", "[e2e][matrix_unit]") {
  const int h = 13, w = 11, ci = 19, co = 21, k = 3, band = 4;  // odd sizes, ragged last band
  std::string dir = scratch_dir("conv-functional");
  std::string trace = banded_conv_trace(dir, h, w, ci, co, k, band);
  auto r = run_npusim({"run", "--quiet", "--functional", "--trace", trace, "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);

  ConvShape shape;
  shape.hi = h;
  shape.wi = w;
  shape.ci = ci;
  shape.co = co;
  shape.kh = shape.kw = k;
  shape.pad_top = shape.pad_bottom = shape.pad_left = shape.pad_right = k / 2;
  auto x = elements<std::int8_t>(read_npy(dir + "/run/tensors/ifmap_copy.npy"));
  auto weights = elements<std::int8_t>(read_npy(dir + "/run/tensors/weights_copy.npy"));
  auto expected = reference::direct_conv<std::int8_t, std::int32_t>(shape, x, weights);
  NpyArray y = read_npy(dir + "/run/tensors/ofmap.npy");
  CHECK(y.shape == std::vector<std::uint64_t>{1, std::uint64_t(h), std::uint64_t(w), std::uint64_t(co)});
  CHECK(elements<std::int32_t>(y) == expected);
}
