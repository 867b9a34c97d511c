#include "FuzzInput.h"

#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace npusim::fuzz {

namespace {

// Made once and never freed: the exit handler that removes it runs after static
// destructors would have destroyed a static path.
const std::filesystem::path& scratch_directory() {
  static const std::filesystem::path* dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "npusim-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    return new std::filesystem::path(pattern);
  }();
  static const bool cleanup = (std::atexit([] {
                                 std::error_code ignored;
                                 std::filesystem::remove_all(*dir, ignored);
                               }),
                               true);
  (void)cleanup;
  return *dir;
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

// libsystemc.so refers to the program's sc_main; the fuzz targets link the model
// library but never start the SystemC kernel.
extern "C" int sc_main(int, char**) { return 0; }
