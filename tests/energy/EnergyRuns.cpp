#include "energy/EnergyRuns.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "e2e/NpusimProcess.h"

namespace energy_test {

json run_report(const std::vector<std::string>& args, const std::string& out) {
  std::vector<std::string> all = {"run", "--quiet", "--out", out};
  all.insert(all.end(), args.begin(), args.end());
  const NpusimResult r = run_npusim(all);
  INFO(r.output);
  REQUIRE(r.status == 0);
  return json::parse(read_text(out + "/report.json"));
}

std::string write_config(const std::string& dir, const std::string& name, const std::string& base, const json& patch) {
  json doc = patch;
  doc["extends"] = source_path("configs/" + base);
  const std::string path = dir + "/" + name;
  write_text(path, doc.dump(2));
  return path;
}

const json& row_named(const json& rows, const std::string& name) {
  for (const auto& row : rows)
    if (row.at("name") == name) return row;
  FAIL("no row named " << name << " in " << rows.dump());
  return rows;
}

double relative(double a, double b) { return std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), 1e-30}); }

std::string conv_trace(unsigned h, unsigned w, unsigned ci, unsigned co, const std::string& dtype, bool requantize) {
  const std::string out_type = requantize ? "int8" : dtype == "int8" ? "int32" : "float32";
  json params = {{"stride", {1, 1}}, {"padding", {0, 0, 0, 0}}};
  if (requantize) params["shift"] = 7;
  const json ifm = {1, h, w, ci}, weights = {co, 1, 1, ci}, ofm = {1, h, w, co};
  auto operand = [](const char* space, std::uint64_t offset, const json& shape, const std::string& type) {
    return json{{"space", space}, {"offset", offset}, {"shape", shape}, {"dtype", type}};
  };
  std::vector<json> lines = {
      {{"format", "npusim-trace"}, {"version", 1}},
      {{"id", 0}, {"op", "load"}, {"inputs", {operand("dram", 0, ifm, dtype)}},
       {"outputs", {operand("nram", 0, ifm, dtype)}}},
      {{"id", 1}, {"op", "load"}, {"inputs", {operand("dram", 1 << 20, weights, dtype)}},
       {"outputs", {operand("wram", 0, weights, dtype)}}},
      {{"id", 2}, {"op", "conv"},
       {"inputs", {operand("nram", 0, ifm, dtype), operand("wram", 0, weights, dtype)}},
       {"outputs", {operand("nram", 1 << 17, ofm, out_type)}},
       {"params", params},
       {"deps", {0, 1}}},
      {{"id", 3}, {"op", "store"}, {"inputs", {operand("nram", 1 << 17, ofm, out_type)}},
       {"outputs", {operand("dram", 2 << 20, ofm, out_type)}}, {"deps", {2}}}};
  std::string text;
  for (const auto& l : lines) text += l.dump() + "\n";
  return text;
}

}  // namespace energy_test
