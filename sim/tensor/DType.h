#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace npusim {

// Element types a tensor may hold. Names follow NumPy ("int8", "float32").
enum class DType { Int8, UInt8, Int16, Int32, Float16, Float32 };

std::size_t dtype_size(DType t);
const char* dtype_name(DType t);
std::optional<DType> parse_dtype(const std::string& name);
// The list of accepted names, for error messages.
std::string dtype_choices();

}  // namespace npusim
