#include "sim/report/OutputDirectory.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/common/AtomicFile.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace fs = std::filesystem;

namespace {

fs::path parent_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

// A hidden sibling of `p` with a suffix, e.g. runs/.a.partial for runs/a.
fs::path hidden_sibling(const fs::path& p, const std::string& suffix) {
  return parent_of(p) / ("." + p.filename().string() + suffix);
}

// Removes a leftover of ours (checked by check_leftover) from a crashed run.
void remove_leftover(const fs::path& p, const std::string& given) {
  check_leftover(p, OutputKind::Run);
  std::error_code ec;
  fs::remove_all(p, ec);
  if (ec) throw InputError(given, "", fmt::format("cannot remove the leftover {}: {}", p.string(), ec.message()));
}

}  // namespace

OutputDirectory::OutputDirectory(const std::string& final_path, const std::string& option)
    : given_(final_path), option_(option) {
  check_output_place(final_path, OutputKind::Run, option);
  const fs::path final_dir = output_path(final_path);
  const fs::path staging = hidden_sibling(final_dir, ".partial");
  create_parents(final_dir, final_path);
  remove_leftover(staging, final_path);
  final_path_ = final_dir.string();
  staging_path_ = staging.string();
  displaced_path_ = hidden_sibling(final_dir, ".old").string();
  // Registered before the directory exists, so no moment is left uncovered.
  interrupt_.emplace("the unfinished run directory " + staging_path_, [staging] {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
  });
  std::error_code ec;
  {
    CreationGuard guard;
    fs::create_directory(staging, ec);
  }
  if (ec) throw InputError(final_path, option, fmt::format("cannot create the run directory: {}", ec.message()));
  write_marker(staging, OutputKind::Run);
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
  // Checked again: the place may have changed while the run was simulating.
  check_output_place(given_, OutputKind::Run, option_);
  // An interruption waits for the swap to finish: it never sees the old run moved
  // aside with the new one not yet in place.
  CreationGuard guard;
  const bool replacing = fs::exists(fs::symlink_status(final_path_));
  if (replacing) {
    remove_leftover(displaced_path_, given_);
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
  interrupt_.reset();
  if (replacing) fs::remove_all(displaced_path_);
}

std::string fresh_run_directory(const std::string& runs_root, const std::string& stem) {
  for (unsigned n = 1;; ++n) {
    const fs::path candidate = fs::path(runs_root) / fmt::format("{}-{:03}", stem, n);
    if (!fs::exists(fs::symlink_status(candidate))) return candidate.string();
  }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  AtomicFile file(path);
  file.write(contents);
  file.commit();
}

}  // namespace npusim
