#include "sim/report/OutputDirectory.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

namespace npusim {

namespace fs = std::filesystem;

namespace {

// "runs/a/" and "runs/a" name the same directory; drop the trailing separator so
// filename() is never empty.
fs::path normalized(const std::string& path) {
  fs::path p = fs::path(path).lexically_normal();
  if (p.has_filename()) return p;
  return p.parent_path();
}

fs::path parent_of(const fs::path& p) {
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

// A hidden sibling of `p` with a suffix, e.g. runs/.a.partial for runs/a.
fs::path hidden_sibling(const fs::path& p, const std::string& suffix) {
  return parent_of(p) / ("." + p.filename().string() + suffix);
}

}  // namespace

OutputDirectory::OutputDirectory(std::string final_path) {
  const fs::path final_dir = normalized(final_path);
  if (final_dir.empty() || final_dir.filename() == "." || final_dir.filename() == "..")
    throw std::invalid_argument(fmt::format("not a usable output directory: '{}'", final_path));
  const fs::path staging = hidden_sibling(final_dir, ".partial");
  fs::create_directories(parent_of(final_dir));
  fs::remove_all(staging);  // left over from a run that crashed
  fs::create_directory(staging);
  final_path_ = final_dir.string();
  staging_path_ = staging.string();
  displaced_path_ = hidden_sibling(final_dir, ".old").string();
}

OutputDirectory::~OutputDirectory() {
  if (committed_) return;
  std::error_code ignored;
  fs::remove_all(staging_path_, ignored);
}

std::string OutputDirectory::file(const std::string& name) const {
  return (fs::path(staging_path_) / name).string();
}

void OutputDirectory::commit() {
  if (committed_) throw std::logic_error("OutputDirectory committed twice: " + final_path_);
  const bool replacing = fs::exists(fs::symlink_status(final_path_));
  if (replacing) {
    fs::remove_all(displaced_path_);
    fs::rename(final_path_, displaced_path_);
  }
  try {
    fs::rename(staging_path_, final_path_);
  } catch (...) {
    // Put the previous run back rather than leave no directory at all.
    std::error_code ignored;
    if (replacing) fs::rename(displaced_path_, final_path_, ignored);
    throw;
  }
  committed_ = true;
  if (replacing) fs::remove_all(displaced_path_);
}

std::string fresh_run_directory(const std::string& runs_root, const std::string& stem) {
  for (unsigned n = 1;; ++n) {
    const fs::path candidate = fs::path(runs_root) / fmt::format("{}-{:03}", stem, n);
    if (!fs::exists(fs::symlink_status(candidate))) return candidate.string();
  }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  const fs::path target = normalized(path);
  const fs::path temp = hidden_sibling(target, ".tmp");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw std::runtime_error("cannot write " + target.string());
    }
  }
  std::error_code failed;
  fs::rename(temp, target, failed);
  if (failed) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw fs::filesystem_error("cannot replace file", temp, target, failed);
  }
}

}  // namespace npusim
