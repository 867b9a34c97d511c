#pragma once
#include <optional>
#include <string>

#include "sim/common/Interruption.h"
#include "sim/report/OutputOwnership.h"
#include "sim/report/PlaceLock.h"

namespace npusim {

// A run directory that appears all at once, written by one process at a time.
//
// The constructor claims the final path (PlaceLock: a second npusim writing the same
// place is refused with its pid), clears what a crashed run left there, and creates a
// staging directory private to this process: <parent>/.<name>.<pid>-<n>.partial,
// made exclusively. commit() renames it to the final path. Dying uncommitted (error,
// exception, SIGINT/SIGTERM/SIGHUP) removes it, so a failed run leaves nothing.
//
// An existing final directory is used only when it is empty or npusim made it and it
// holds nothing but npusim's files (OutputOwnership.h). It is written into, never
// replaced, so it keeps its owner, mode and inode (and a mount point works): staging
// then lives inside it, and commit() moves the old run's files aside and the new
// ones up. A new final path is made by renaming the staging directory.
class OutputDirectory {
 public:
  OutputDirectory(const std::string& final_path, const std::string& option = "--out");
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  const std::string& final_path() const { return final_path_; }
  const std::string& staging_path() const { return staging_path_; }
  // Path of `name` inside the staging directory.
  std::string file(const std::string& name) const;
  // Moves staging to the final path, replacing a run directory already there.
  void commit();
  bool committed() const { return committed_; }

 private:
  void create_staging(const std::string& parent);
  void commit_by_rename();
  void commit_in_place();

  std::string given_;
  std::string option_;
  std::string final_path_;
  std::string staging_path_;
  bool committed_ = false;
  PlaceLock::Handle lock_;
  std::optional<OnInterrupt> interrupt_;  // removes staging on SIGINT/SIGTERM/SIGHUP
};

// A run directory runs_root/<stem>-NNN, claimed for this process: the first number
// whose directory does not exist and that no other npusim is claiming. Numbered,
// not timestamped, so the same sequence of runs gets the same names. Keep the
// returned claim alive until the OutputDirectory for that path exists.
struct FreshRunDirectory {
  std::string path;
  PlaceLock::Handle claim;
};
FreshRunDirectory fresh_run_directory(const std::string& runs_root, const std::string& stem);

// Writes a single file through a uniquely named temporary sibling and a rename, so
// readers see either the old contents or the new, never a partial file. For files
// inside directories npusim owns.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace npusim
