#include "sim/common/InputFile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "sim/common/InputError.h"

namespace npusim {

namespace fs = std::filesystem;

std::string input_file_problem(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // follows symbolic links
  if (status.type() == fs::file_type::not_found) return "file does not exist";
  if (ec) return "cannot read it: " + ec.message();
  if (status.type() == fs::file_type::directory) return "it is a directory, not a file";
  if (status.type() != fs::file_type::regular)
    return "not an ordinary file (a device, pipe or socket); npusim reads inputs only from ordinary files";
  return "";
}

std::ifstream open_input_file(const std::string& path) {
  const std::string problem = input_file_problem(path);
  if (!problem.empty()) throw InputError(path, "", problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", std::string("cannot open the file: ") + std::strerror(errno));
  return in;
}

std::string read_input_prefix(const std::string& path, std::size_t bytes) {
  std::ifstream in = open_input_file(path);
  std::string prefix(bytes, '\0');
  in.read(prefix.data(), std::streamsize(bytes));
  if (in.bad()) throw InputError(path, "", "reading the file failed");
  prefix.resize(std::size_t(in.gcount()));
  return prefix;
}

std::string read_input_file(const std::string& path) {
  std::ifstream in = open_input_file(path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path, "", "reading the file failed");
  return text.str();
}

}  // namespace npusim
