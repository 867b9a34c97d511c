#include "sim/report/OutputDirectory.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "sim/common/AtomicFile.h"
#include "sim/common/InputError.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace fs = std::filesystem;

namespace {

bool present(const fs::path& p) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(p, ec));
}

// Moves every entry of `from` but npusim's own leftovers (staging, displaced) and, when
// `keep_marker`, the marker into `to`, on the same file system. The marker moves first,
// so `to` is marked as a run directory before any file arrives.
void move_entries(const fs::path& from, const fs::path& to, const std::string& place_name, bool keep_marker) {
  const std::string marker = marker_name(OutputKind::Run);
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(from)) {
    const std::string name = entry.path().filename().string();
    if (is_leftover_name(name, place_name) || (keep_marker && name == marker)) continue;
    entries.insert(name == marker ? entries.begin() : entries.end(), entry.path());
  }
  for (const fs::path& p : entries) fs::rename(p, to / p.filename());
}

}  // namespace

OutputDirectory::OutputDirectory(const std::string& final_path, const std::string& option)
    : given_(final_path), option_(option) {
  check_place_name(final_path, OutputKind::Run, option);
  const fs::path final_dir = output_path(final_path);
  create_parents(final_dir, final_path);
  lock_ = PlaceLock::claim(final_dir, final_path, option);
  remove_leftovers(final_dir, OutputKind::Run);
  check_output_place(final_path, OutputKind::Run, option);  // now that nobody else writes it
  final_path_ = final_dir.string();
  // An existing folder is written into: its staging sits inside it, on its file system.
  create_staging(present(final_dir) ? final_path_ : parent_directory(final_dir).string());
  try {
    write_marker(staging_path_, OutputKind::Run);
  } catch (...) {
    std::error_code ignored;  // a full disk: nothing of this run may stay behind
    fs::remove_all(staging_path_, ignored);
    throw;
  }
}

// <dir>/.<name>.<pid>-<n>.partial, made exclusively: a name no other process uses.
void OutputDirectory::create_staging(const std::string& dir) {
  const std::string name = fs::path(final_path_).filename().string();
  for (unsigned n = 0;; ++n) {
    const fs::path staging = fs::path(dir) / fmt::format(".{}.{}-{}.partial", name, ::getpid(), n);
    // Registered before the directory exists, so no moment is left uncovered.
    interrupt_.emplace("the unfinished run directory " + staging.string(), [staging] {
      std::error_code ignored;
      fs::remove_all(staging, ignored);
    });
    std::error_code ec;
    bool made;
    {
      CreationGuard guard;
      made = fs::create_directory(staging, ec);
      if (!made) interrupt_.reset();  // inside the guard: an interruption never removes what is not ours
    }
    if (ec) throw InputError(given_, option_, fmt::format("cannot create the run directory: {}", ec.message()));
    if (!made) continue;  // a name in use: take the next
    staging_path_ = staging.string();
    return;
  }
}

OutputDirectory::~OutputDirectory() {
  if (committed_ || staging_path_.empty()) return;
  std::error_code ignored;
  fs::remove_all(staging_path_, ignored);
}

std::string OutputDirectory::file(const std::string& name) const {
  return (fs::path(staging_path_) / name).string();
}

void OutputDirectory::commit() {
  if (committed_) throw std::logic_error("OutputDirectory committed twice: " + final_path_);
  // Checked again: the user may have changed the place while the run was simulating.
  check_output_place(given_, OutputKind::Run, option_);
  // An interruption waits for the swap to finish: it never sees the old run moved
  // aside with the new one not yet in place.
  CreationGuard guard;
  try {
    // Also a folder made at the final path while the run simulated is written into.
    present(final_path_) ? commit_in_place() : commit_by_rename();
  } catch (const fs::filesystem_error& e) {
    throw InputError(given_, option_, fmt::format("cannot put the run directory in place: {}", e.code().message()));
  }
  committed_ = true;
  interrupt_.reset();
}

void OutputDirectory::commit_by_rename() { fs::rename(staging_path_, final_path_); }

// The final directory stays (a folder the user made, a mount point, an earlier run's):
// an old run's files move aside into a hidden folder inside it, the new ones move up.
// Both stay marked throughout, so whatever a SIGKILL interrupts, the next run finds
// npusim's files only and may clear them.
void OutputDirectory::commit_in_place() {
  const fs::path final_dir(final_path_), staging(staging_path_);
  const fs::path displaced = final_dir / fs::path(staging).replace_extension(".old").filename();
  const std::string name = final_dir.filename().string();
  fs::create_directory(displaced);
  write_marker(displaced, OutputKind::Run);
  move_entries(final_dir, displaced, name, true);
  move_entries(staging, final_dir, name, false);
  fs::remove(staging);
  fs::remove_all(displaced);
}

FreshRunDirectory fresh_run_directory(const std::string& runs_root, const std::string& stem) {
  create_parents(fs::path(runs_root) / stem, runs_root);
  for (unsigned n = 1;; ++n) {
    const fs::path candidate = fs::path(runs_root) / fmt::format("{}-{:03}", stem, n);
    if (present(candidate)) continue;
    PlaceLock::Handle claim = PlaceLock::try_claim(candidate);
    // Checked again once claimed: another run may have finished it meanwhile.
    if (claim && !present(candidate)) return {candidate.string(), std::move(claim)};
  }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  AtomicFile file(path);
  file.write(contents);
  file.commit();
}

}  // namespace npusim
