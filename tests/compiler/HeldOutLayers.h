#pragma once
// The held-out layer tables (tests/compiler/split-held-out) for the tests that check an auto
// choice against every forced one, run by separate npusim processes.
#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e/NpusimProcess.h"

namespace npusim::held_out {

// A held-out table's rows as one-layer JSON workloads (no padding, like the table).
inline std::map<std::string, std::string> one_layer_workloads(const std::string& csv) {
  std::map<std::string, std::string> out;
  std::istringstream lines(read_text(csv));
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    std::vector<std::string> f;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) f.push_back(cell);
    if (f.size() < 8) continue;
    auto n = [&](int i) { return std::stoul(f[i]); };
    out[f[0]] = fmt::format(R"({{"name": "{0}", "input": {{"h": {1}, "w": {2}, "c": {3}}},
      "layers": [{{"name": "{0}", "type": "conv", "co": {4}, "kh": {5}, "kw": {6}, "stride": {7}}}]}})",
                            f[0], n(1), n(2), n(5), n(6), n(3), n(4), n(7));
  }
  return out;
}

// `npusim run --quiet --out OUT ARGS...`, required to succeed; its report.json.
inline nlohmann::json run_report(const std::vector<std::string>& args, const std::string& out) {
  std::vector<std::string> all = {"run", "--quiet", "--out", out};
  all.insert(all.end(), args.begin(), args.end());
  const auto r = run_npusim(all);
  INFO(r.output);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(read_text(out + "/report.json"));
}

}  // namespace npusim::held_out
