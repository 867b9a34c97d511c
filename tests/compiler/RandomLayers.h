#pragma once
// Random conv and fc layers over the network input, for the tests that compare every way of
// compiling a layer with the plain reference (split modes, load orders).
#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include <fmt/format.h>

namespace npusim::layer_reference {

struct RandomLayer {
  bool fc;
  std::uint32_t co, kh, kw, sh, sw;
  std::array<std::uint32_t, 4> pad;
  bool relu;
};

// One in four an fc layer; a conv of kernel 1-5, strides 1-3, each pad below the kernel;
// `co_lo`..`co_hi` output channels. `pick(lo, hi)` draws uniformly, in this order.
inline RandomLayer random_layer(const std::function<int(int, int)>& pick, int co_lo, int co_hi) {
  RandomLayer s{pick(0, 3) == 0, std::uint32_t(pick(co_lo, co_hi)), 1, 1, 1, 1, {0, 0, 0, 0}, pick(0, 1) == 1};
  if (!s.fc) {
    s.kh = pick(1, 5), s.kw = pick(1, 5), s.sh = pick(1, 3), s.sw = pick(1, 3);
    s.pad = {std::uint32_t(pick(0, s.kh - 1)), std::uint32_t(pick(0, s.kh - 1)), std::uint32_t(pick(0, s.kw - 1)),
             std::uint32_t(pick(0, s.kw - 1))};
  }
  return s;
}

// Layer `i` ("l<i>", reading the network input) as a workload's JSON, with a leading comma after the first.
inline std::string random_layer_json(const RandomLayer& s, int i) {
  if (s.fc)
    return fmt::format(R"({}{{"name":"l{}","type":"fc","input":"input","n":{},"relu":{}}})", i ? "," : "", i, s.co,
                       s.relu);
  return fmt::format(
      R"({}{{"name":"l{}","type":"conv","input":"input","co":{},"kh":{},"kw":{},"sh":{},"sw":{},"padding":[{},{},{},{}],"relu":{}}})",
      i ? "," : "", i, s.co, s.kh, s.kw, s.sh, s.sw, s.pad[0], s.pad[1], s.pad[2], s.pad[3], s.relu);
}

}  // namespace npusim::layer_reference
