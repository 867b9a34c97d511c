#pragma once
// A functional chain of three conv layers (3x3 pad 1, 5x5 stride 2 pad 2, 1x1; ReLU after
// each) run as users run it; the last layer's tensor must equal the plain reference chain
// computed from the dumped input and weights. Whatever a chip keeps between the layers
// (compressed maps, handed-off outputs, cached rows) must not change a bit.
#include <string>

#include <fmt/format.h>

#include "compiler/FunctionalRun.h"
#include "compiler/ReferenceLayers.h"
#include "e2e/NpusimProcess.h"

namespace npusim::layer_reference {

// `config` is the chip's JSON text; `layer_fields` is added to every layer (its engine, its zeros).
inline void check_conv_chain(const std::string& name, const std::string& config, const std::string& layer_fields,
                             std::uint64_t seed) {
  const std::string dir = scratch_dir("chain-" + name);
  write_text(dir + "/chip.json", config);
  write_text(dir + "/w.json",
             fmt::format(R"({{"seed":{0},"input":{{"h":21,"w":17,"c":5}},"layers":[)"
                         R"({{"name":"a","type":"conv","co":9,"k":3,"padding":1,"relu":true{1}}},)"
                         R"({{"name":"b","type":"conv","co":7,"k":5,"stride":2,"padding":2,"relu":true{1}}},)"
                         R"({{"name":"c","type":"conv","co":6,"k":1,"relu":true{1}}}]}})",
                         seed, layer_fields));
  const std::string t = run_functional(dir + "/w.json", dir + "/chip.json", dir + "/run");
  const auto x = load(t + "input.npy");
  const auto a = conv(x, load(t + "a.weights.npy"), 9, 3, 3, 1, 1, {1, 1, 1, 1}, true);
  const auto b = conv(a, load(t + "b.weights.npy"), 7, 5, 5, 2, 2, {2, 2, 2, 2}, true);
  const auto c = conv(b, load(t + "c.weights.npy"), 6, 1, 1, 1, 1, {0, 0, 0, 0}, true);
  CHECK(load(t + "c.npy").v == c.v);
}

}  // namespace npusim::layer_reference
