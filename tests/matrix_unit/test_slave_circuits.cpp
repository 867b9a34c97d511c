// The slave circuits as SystemC children of the matrix unit: each gets the output
// channels of the round-robin dealing (co c -> slave c mod N) and receives their
// weights over its own link. 32 channels on 5 slaves: slaves 0 and 1 hold 7, the
// others 6, so their links carry 7/32 and 6/32 of the weight traffic.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

TEST_CASE("matrix unit: each slave circuit computes and receives its round-robin share of co", "[matrix_unit]") {
  const std::string dir = scratch_dir("slave-circuits");
  const std::uint32_t slaves = 5, co = 32;
  write_text(dir + "/five.json", "{\"extends\": \"" + source_path("configs/default.json") +
                                     "\", \"core\": {\"matrix\": {\"slaves\": 5}}}");
  auto r = run_npusim({"run", "--quiet", "--config", dir + "/five.json", "--trace",
                       source_path("traces/examples/conv.jsonl"), "--out", dir + "/run"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
  const auto& layers = report.at("matrix_unit_layers");
  REQUIRE(layers.size() == 1);
  const std::uint64_t useful = layers[0].at("useful_macs"), distributed = layers[0].at("distribution_bytes");
  const auto& rows = report.at("matrix_unit_slaves");
  REQUIRE(rows.size() == slaves);
  std::uint64_t macs = 0, bytes = 0;
  for (std::uint32_t s = 0; s < slaves; ++s) {
    INFO("slave " << s);
    std::uint64_t mine = 0;
    for (std::uint32_t c = 0; c < co; ++c) mine += c % slaves == s;
    CHECK(rows[s].at("slave") == s);
    CHECK(rows[s].at("output_channels") == mine);
    CHECK(rows[s].at("useful_macs") == useful * mine / co);
    CHECK(rows[s].at("weight_bytes") == distributed * mine / co);
    macs += rows[s].at("useful_macs").get<std::uint64_t>();
    bytes += rows[s].at("weight_bytes").get<std::uint64_t>();
  }
  CHECK(macs == useful);
  CHECK(bytes == distributed);
  // The port table shows the distribution bus as the sum of the five links.
  bool found = false;
  for (const auto& m : report.at("memories"))
    if (m.at("name") == "core0.matrix.distribution_bus") {
      found = true;
      CHECK(m.at("bytes_read") == distributed);
      CHECK(m.at("bandwidth_bytes_per_cycle") == Approx(5 * 64.0));
    }
  CHECK(found);
}
