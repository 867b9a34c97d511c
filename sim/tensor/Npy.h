#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/tensor/DType.h"

namespace npusim {

// A dense, C-ordered, little-endian array as stored in a NumPy .npy file.
struct NpyArray {
  DType dtype = DType::Int8;
  std::vector<std::uint64_t> shape;  // empty = scalar
  std::vector<std::uint8_t> data;    // raw element bytes, little-endian

  std::uint64_t elements() const;
};

// What the header says, without the data. Reading it also checks that the file
// holds exactly as many data bytes as the shape needs.
struct NpyHeader {
  DType dtype = DType::Int8;
  std::vector<std::uint64_t> shape;
  std::uint64_t data_offset = 0;  // bytes from the start of the file

  std::uint64_t data_bytes() const;
};

// Both readers throw InputError(path, "", reason) for anything they cannot accept.
NpyHeader read_npy_header(const std::string& path);
NpyArray read_npy(const std::string& path);

// Writes format version 1.0 through a temporary file and a rename, so a reader
// never sees half a file. Throws InputError when the file cannot be written.
void write_npy(const std::string& path, const NpyArray& a);

}  // namespace npusim
