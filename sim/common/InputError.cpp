#include "sim/common/InputError.h"

#include <cerrno>
#include <cstring>

namespace npusim {

namespace {
std::string compose(const std::string& file, const std::string& location, const std::string& reason) {
  std::string text = file.empty() ? std::string("<input>") : file;
  if (!location.empty()) text += ": " + location;
  return text + ": " + reason;
}
}  // namespace

InputError::InputError(std::string file, std::string location, std::string reason)
    : std::runtime_error(compose(file, location, reason)),
      file_(std::move(file)),
      location_(std::move(location)),
      reason_(std::move(reason)) {}

void fail_writing(const std::string& path, const std::string& what) {
  const int error = errno;
  throw InputError(path, "", what + ": " + (error != 0 ? std::strerror(error) : "unknown reason"));
}

}  // namespace npusim
