// Chains of three sparse layers as users run them (issue 47): whatever the cluster does
// with the weights (compressed offline or on the chip) and with the outputs between the
// layers (stored compressed, or handed over interconnect 920), the last layer's tensor
// equals the plain reference chain, bit for bit.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "compiler/ChainReference.h"

namespace {

std::string sparse_chip(const std::string& sparse_keys) {
  return fmt::format(R"({{"extends":"{}","core":{{"sparse":{{"min_ports":128{}}}}}}})",
                     source_path("configs/sparse.json"), sparse_keys);
}

constexpr const char* kSparse = R"(,"engine":"sparse","activation_sparsity":0.5,"weight_sparsity":0.6)";

}  // namespace

TEST_CASE("sparse chains: three sparse layers equal the reference chain, weights compressed offline or on the chip",
          "[sparse][compiler][e2e]") {
  using npusim::layer_reference::check_conv_chain;
  check_conv_chain("sparse-offline", sparse_chip(R"(,"compute_interconnect":"none")"), kSparse, 47);
  check_conv_chain("sparse-on-chip", sparse_chip(R"(,"compute_interconnect":"none","weight_compression":"on_chip")"),
                   kSparse, 48);
}

TEST_CASE("sparse chains: outputs handed over 920 to the next layer's units keep the chain bit-identical",
          "[sparse][hand_off][compiler][e2e]") {
  using npusim::layer_reference::check_conv_chain;
  check_conv_chain("sparse-benes-hand-off", sparse_chip(R"(,"compute_interconnect":"benes")"), kSparse, 49);
  check_conv_chain("sparse-2x2-hand-off", sparse_chip(R"(,"compute_interconnect":"2x2","units":6)"), kSparse, 50);
  check_conv_chain("sparse-benes-no-hand-off", sparse_chip(R"(,"compute_interconnect":"benes","hand_off":false)"),
                   kSparse, 51);
}
