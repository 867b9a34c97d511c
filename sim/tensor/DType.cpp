#include "sim/tensor/DType.h"

namespace npusim {

namespace {
struct DTypeInfo {
  DType type;
  const char* name;
  std::size_t size;
};
constexpr DTypeInfo kTypes[] = {
    {DType::Int8, "int8", 1},    {DType::UInt8, "uint8", 1},     {DType::Int16, "int16", 2},
    {DType::Int32, "int32", 4},  {DType::Float16, "float16", 2}, {DType::Float32, "float32", 4},
};
}  // namespace

std::size_t dtype_size(DType t) {
  for (const auto& info : kTypes)
    if (info.type == t) return info.size;
  return 1;
}

const char* dtype_name(DType t) {
  for (const auto& info : kTypes)
    if (info.type == t) return info.name;
  return "?";
}

std::optional<DType> parse_dtype(const std::string& name) {
  for (const auto& info : kTypes)
    if (name == info.name) return info.type;
  return std::nullopt;
}

std::string dtype_choices() {
  std::string s;
  for (const auto& info : kTypes) s += (s.empty() ? "" : ", ") + std::string(info.name);
  return s;
}

}  // namespace npusim
