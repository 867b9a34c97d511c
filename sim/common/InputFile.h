#pragma once
#include <cstddef>
#include <fstream>
#include <string>

namespace npusim {

// Files the user names are read only when they are ordinary files: a device such as
// /dev/zero never ends, a FIFO may block forever, a directory means nothing.
// Returns why `path` cannot be read as an input, or "" when it can.
std::string input_file_problem(const std::string& path);

// The whole file; InputError naming `path` when it is missing, not an ordinary
// file or unreadable.
std::string read_input_file(const std::string& path);

// The file's first `bytes` bytes (fewer when it is shorter), with read_input_file's checks:
// enough to tell a format without reading a large file whole.
std::string read_input_prefix(const std::string& path, std::size_t bytes);

// An open stream on an ordinary file, for readers that stream (traces, .npy).
std::ifstream open_input_file(const std::string& path);

}  // namespace npusim
