#include "scheduling/SchedulingRun.h"

#include <fstream>
#include <sstream>

#include "e2e/NpusimProcess.h"

std::string TestMachine::config_json() const {
  nlohmann::json c = {
      {"chip",
       {{"dram",
         {{"channels", 2}, {"bytes_per_cycle", dram_bytes_per_cycle}, {"latency", dram_latency},
          {"interleave_bytes", channel_bytes}}},
        {"interconnect", {{"hop_latency", 0}}}}},
      {"core",
       {{"controller", {{"dispatch_cycles", 0}}},
        {"nram", {{"port_bytes_per_cycle", port_bytes_per_cycle}, {"access_latency", 0}}},
        {"wram", {{"port_bytes_per_cycle", port_bytes_per_cycle}, {"access_latency", 0}}},
        {"load_dma", {{"bytes_per_cycle", dma_bytes_per_cycle}, {"setup_cycles", 0}, {"segment_bytes", segment_bytes},
                      {"max_outstanding", max_outstanding}, {"max_segments", max_segments}}},
        {"store_dma", {{"bytes_per_cycle", store_bytes_per_cycle ? store_bytes_per_cycle : dma_bytes_per_cycle},
                       {"setup_cycles", 0}, {"segment_bytes", segment_bytes}, {"max_outstanding", max_outstanding},
                       {"max_segments", max_segments}}},
        {"vector", {{"bytes_per_cycle", vector_bytes_per_cycle}, {"pipeline_latency", vector_latency}}}}}};
  if (!dependency_mode.empty()) c["core"]["controller"]["dependency_mode"] = dependency_mode;
  return c.dump(2);
}

std::uint64_t TestMachine::dma_segment_bytes(std::uint64_t total) const {
  const std::uint64_t units = (total + segment_bytes - 1) / segment_bytes;
  if (max_segments == 0 || units <= max_segments) return segment_bytes;
  return (units + max_segments - 1) / max_segments * segment_bytes;
}

nlohmann::json tensor(const std::string& space, std::uint64_t offset, std::vector<std::uint64_t> shape) {
  return {{"space", space}, {"offset", offset}, {"shape", shape}, {"dtype", "int8"}};
}

nlohmann::json dependency(std::uint64_t id, const std::string& mode, const std::string& granularity) {
  nlohmann::json d = {{"id", id}, {"mode", mode}};
  if (!granularity.empty()) d["granularity"] = granularity;
  return d;
}

nlohmann::json instruction(std::uint64_t id, const std::string& op, nlohmann::json in, nlohmann::json out,
                           std::vector<nlohmann::json> deps) {
  return {{"id", id},
          {"op", op},
          {"inputs", nlohmann::json::array({in})},
          {"outputs", nlohmann::json::array({out})},
          {"deps", nlohmann::json(deps)}};
}

SchedulingRun run_trace(const std::string& name, const TestMachine& machine, const std::vector<nlohmann::json>& lines,
                        const std::string& mode) {
  return run_trace_on(name, machine.config_json(), lines, mode);
}

SchedulingRun run_trace_on(const std::string& name, const std::string& config_json,
                           const std::vector<nlohmann::json>& lines, const std::string& mode) {
  const std::string dir = scratch_dir(name);
  write_text(dir + "/machine.json", config_json);
  std::string trace = R"({"format":"npusim-trace","version":1})" "\n";
  for (const auto& l : lines) trace += l.dump() + "\n";
  write_text(dir + "/t.jsonl", trace);
  std::vector<std::string> args = {"run", "--quiet", "--config", dir + "/machine.json", "--trace", dir + "/t.jsonl",
                                   "--out", dir + "/run"};
  if (!mode.empty()) {
    args.push_back("--dependency-mode");
    args.push_back(mode);
  }
  NpusimResult r = run_npusim(args);
  SchedulingRun out;
  out.status = r.status;
  out.output = r.output;
  if (r.status != 0) return out;
  std::istringstream csv(read_text(dir + "/run/instructions.csv"));
  std::string line;
  std::getline(csv, line);  // id,op,engine,core,dispatch,start,end,...
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) f.push_back(cell);
    out.by_id[std::stoull(f.at(0))] = {std::stoull(f.at(5)), std::stoull(f.at(6))};
  }
  out.report = nlohmann::json::parse(read_text(dir + "/run/report.json"));
  out.timeline = read_text(dir + "/run/timeline.json");
  return out;
}

std::vector<nlohmann::json> tiled_relu_layer(const TestMachine& m, std::uint64_t tiles, std::uint64_t rows,
                                             const std::string& mode) {
  const std::uint64_t width = m.segment_bytes / 16;  // 16 channels of int8: one row is one segment
  const std::vector<std::uint64_t> shape = {1, rows, width, 16};
  const std::uint64_t bytes = rows * m.segment_bytes;
  const std::string granularity = mode == "staged" ? "rows" : "";
  std::vector<nlohmann::json> lines;
  for (std::uint64_t t = 0; t < tiles; ++t) {
    const std::uint64_t id = 3 * t;
    // Input tiles on DRAM channel 0, outputs on channel 1, fresh NRAM buffers.
    nlohmann::json load_deps = nlohmann::json::array();
    if (t > 0) load_deps.push_back(dependency(id - 1, mode, granularity));
    lines.push_back(instruction(id, "load", tensor("dram", t * bytes, shape), tensor("nram", 2 * t * bytes, shape),
                                load_deps));
    lines.push_back(instruction(id + 1, "relu", tensor("nram", 2 * t * bytes, shape),
                                tensor("nram", (2 * t + 1) * bytes, shape), {dependency(id, mode, granularity)}));
    lines.push_back(instruction(id + 2, "store", tensor("nram", (2 * t + 1) * bytes, shape),
                                tensor("dram", m.channel_bytes + t * bytes, shape),
                                {dependency(id + 1, mode, granularity)}));
  }
  return lines;
}
