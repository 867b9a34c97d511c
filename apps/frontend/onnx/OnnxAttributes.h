#pragma once
#include <cstdint>
#include <vector>

#include <onnx/onnx_pb.h>

namespace npusim {

// A node's attribute by name, or nullptr.
inline const onnx::AttributeProto* onnx_attribute(const onnx::NodeProto& n, const char* name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

inline std::vector<std::int64_t> onnx_ints(const onnx::NodeProto& n, const char* name,
                                           std::vector<std::int64_t> fallback) {
  const auto* a = onnx_attribute(n, name);
  return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : fallback;
}

inline std::int64_t onnx_int(const onnx::NodeProto& n, const char* name, std::int64_t fallback) {
  const auto* a = onnx_attribute(n, name);
  return a ? a->i() : fallback;
}

}  // namespace npusim
