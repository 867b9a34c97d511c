#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/frontend/workload/LayerChecks.h"

namespace npusim {

// One JSON field of a workload or layer, read with the messages docs/workload-format.md
// promises (Place::fail). Absent optional fields give the fallback.
using Json = nlohmann::json;

void reject_unknown_keys(const Json& obj, const std::vector<std::string>& known, const Place& place);
// An extent or count from 1 to kMaxExtent; required when `fallback` is 0.
std::uint32_t positive(const Json& obj, const char* key, const Place& place, std::uint32_t fallback = 0);
double fraction(const Json& obj, const char* key, const Place& place);
std::string text(const Json& obj, const char* key, const Place& place, const std::string& fallback);
bool flag(const Json& obj, const char* key, const Place& place);
void check_dtype(const Json& obj, const Place& place);
// "split": checked against the split modes.
std::string split_field(const Json& obj, const Place& place);
// "padding": P, [t, b, l, r] or "same" (for kernel extents keh x kew after dilation).
std::array<std::uint32_t, 4> read_padding(const Json& obj, const Layer& l, std::uint32_t keh, std::uint32_t kew,
                                          const Place& place);
// An integer field as the shared checks take it (nothing: not a JSON integer).
std::optional<std::int64_t> integer(const Json& v);
// Optional hi/wi/ci (or m/k/n) must agree with the tensor the layer reads.
void check_declared(const Json& obj, const char* key, std::uint32_t actual, const Place& place);

// The kind-specific fields of a layer of JSON type `type`; resolves its output shape.
void read_layer_fields(const Json& obj, const std::string& type, Layer& l, const TensorShapes& shapes,
                       const Place& place);
// Every field a layer of each type may have.
const std::map<std::string, std::vector<std::string>>& layer_keys();

}  // namespace npusim
