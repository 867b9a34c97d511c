#include "FuzzInput.h"

#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace npusim::fuzz {

namespace {

std::filesystem::path scratch_directory() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "npusim-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_directory(), ignored);
    });
    return std::filesystem::path(pattern);
  }();
  return dir;
}

}  // namespace

std::string write_input_file(const std::uint8_t* data, std::size_t size, const std::string& name) {
  const std::string path = (scratch_directory() / name).string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path);
  if (size > 0) std::fwrite(data, 1, size, f);
  std::fclose(f);
  return path;
}

}  // namespace npusim::fuzz
