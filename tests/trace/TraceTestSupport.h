#pragma once
// Shared pieces of the trace and .npy tests: a private scratch directory, a
// small hand-built machine, and instruction lines built as JSON so that each
// error test changes exactly one field of a known-good line.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sim/common/InputError.h"
#include "sim/config/HardwareConfig.h"
#include "sim/trace/TraceReader.h"

namespace npusim::testing {

// A fresh directory under the system temp dir, removed when the test ends.
class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("npusim-trace-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
    return file(name);
  }

  std::string write_lines(const std::string& name, const std::vector<std::string>& lines) const {
    std::string text;
    for (const auto& line : lines) text += line + "\n";
    return write(name, text);
  }

 private:
  std::filesystem::path path_;
};

// Two cores with deliberately small scratchpads, so capacity limits are easy to hit.
inline HardwareConfig small_config() {
  HardwareConfig cfg{};
  cfg.chip.name = "test";
  cfg.chip.clock_mhz = 1000;
  cfg.chip.clusters = 1;
  cfg.chip.cores_per_cluster = 2;
  cfg.chip.dram.capacity_bytes = 1 << 20;
  cfg.core.engines = {"load", "store", "vector", "matrix"};
  cfg.core.nram.capacity_bytes = 64 * 1024;
  cfg.core.wram.capacity_bytes = 32 * 1024;
  return cfg;
}

inline const char* kHeaderLine = R"({"format":"npusim-trace","version":1})";

inline nlohmann::json tensor(const char* space, std::uint64_t offset, std::vector<std::uint64_t> shape,
                             const char* dtype = "int8") {
  return {{"space", space}, {"offset", offset}, {"shape", shape}, {"dtype", dtype}};
}

inline nlohmann::json instruction(std::uint64_t id, const char* op, std::vector<nlohmann::json> inputs,
                                  std::vector<nlohmann::json> outputs) {
  return {{"id", id}, {"op", op}, {"inputs", inputs}, {"outputs", outputs}};
}

inline nlohmann::json load_line(std::uint64_t id) {
  return instruction(id, "load", {tensor("dram", 0, {1, 4, 4, 8})}, {tensor("nram", 0, {1, 4, 4, 8})});
}

inline nlohmann::json relu_line(std::uint64_t id) {
  return instruction(id, "relu", {tensor("nram", 0, {1, 4, 4, 8})}, {tensor("nram", 128, {1, 4, 4, 8})});
}

inline nlohmann::json add_line(std::uint64_t id) {
  return instruction(id, "add", {tensor("nram", 0, {1, 4, 4, 8}), tensor("nram", 128, {1, 4, 4, 8})},
                     {tensor("nram", 256, {1, 4, 4, 8})});
}

inline nlohmann::json store_line(std::uint64_t id) {
  return instruction(id, "store", {tensor("nram", 128, {1, 4, 4, 8})}, {tensor("dram", 4096, {1, 4, 4, 8})});
}

// 1x6x6x8 int8 ifmap, 4 kernels 3x3, stride 1, no padding -> 1x4x4x4 int32.
inline nlohmann::json conv_line(std::uint64_t id) {
  return instruction(id, "conv", {tensor("nram", 0, {1, 6, 6, 8}), tensor("wram", 0, {4, 3, 3, 8})},
                     {tensor("nram", 1024, {1, 4, 4, 4}, "int32")});
}

// The reason a trace of header, load 0 and `line` is refused ("location: reason"); empty when
// it is accepted.
inline std::string trace_refusal(const nlohmann::json& line) {
  ScratchDir dir;
  const auto path = dir.write_lines("ops.jsonl", {kHeaderLine, load_line(0).dump(), line.dump()});
  try {
    validate_trace(path, small_config());
  } catch (const InputError& e) {
    return e.location() + ": " + e.reason();
  }
  return "";
}

}  // namespace npusim::testing
