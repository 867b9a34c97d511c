#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/HardwareConfig.h"
#include "sim/trace/Instruction.h"

namespace npusim {

// A line of a trace file, for error messages: "line N" or "line N, field 'f'".
struct TracePlace {
  std::string file;
  std::uint64_t line = 0;

  [[noreturn]] void fail(const std::string& reason) const;
  [[noreturn]] void fail(const std::string& field, const std::string& reason) const;
};

// Readers for one JSON value of a trace line. `field` is its path within the
// line ("inputs[0].shape"); each throws InputError through `place` when the value
// is missing or wrong.
const nlohmann::json& required_field(const nlohmann::json& object, const std::string& key, const TracePlace& place,
                                     const std::string& field);
void reject_unknown_keys(const nlohmann::json& object, const std::vector<std::string>& known, const TracePlace& place,
                         const std::string& prefix);
std::uint64_t read_uint(const nlohmann::json& v, const TracePlace& place, const std::string& field,
                        std::uint64_t limit = UINT64_MAX);
std::string read_string(const nlohmann::json& v, const TracePlace& place, const std::string& field);
std::vector<std::uint64_t> read_shape(const nlohmann::json& v, const TracePlace& place, const std::string& field);
DType read_dtype(const nlohmann::json& v, const TracePlace& place, const std::string& field);
AddressSpace read_space(const nlohmann::json& v, const TracePlace& place, const std::string& field);
std::uint32_t read_core(const nlohmann::json& v, const HardwareConfig& cfg, const TracePlace& place,
                        const std::string& field);

// Bytes one space holds: DRAM for the chip, NRAM and WRAM of `core`'s kind.
std::uint64_t space_capacity(AddressSpace space, std::uint32_t core, const HardwareConfig& cfg);
// Fails unless [offset, offset + bytes) lies inside the space as `core` sees it.
void check_fits(AddressSpace space, std::uint32_t core, std::uint64_t offset, std::uint64_t bytes,
                const HardwareConfig& cfg, const TracePlace& place, const std::string& field);
// Element count times element size, failing instead of overflowing.
std::uint64_t checked_bytes(const std::vector<std::uint64_t>& shape, DType dtype, const TracePlace& place,
                            const std::string& field);

// {"space","offset","shape","layout","dtype","tags"}, checked against capacity.
TensorOperand read_tensor(const nlohmann::json& v, std::uint32_t core, const HardwareConfig& cfg,
                          const TracePlace& place, const std::string& field);

std::string shape_text(const std::vector<std::uint64_t>& shape);
// " (did you mean 'x'?)" for the nearest choice, or "" when none is close.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& choices);

}  // namespace npusim
