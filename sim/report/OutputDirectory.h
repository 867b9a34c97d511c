#pragma once
#include <optional>
#include <string>

#include "sim/common/Interruption.h"
#include "sim/report/OutputOwnership.h"

namespace npusim {

// A run directory that appears all at once. Files are written into a hidden
// sibling staging directory (<parent>/.<name>.partial); commit() renames it to the
// final path. If the object dies uncommitted (error, exception) the staging
// directory is removed, so a failed run never leaves a half-written directory;
// SIGINT and SIGTERM remove it too (sim/common/Interruption.h).
//
// An existing final path is replaced only when npusim made it (OutputOwnership.h);
// anything else is an InputError before the run starts.
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
  std::string given_;
  std::string option_;
  std::string final_path_;
  std::string staging_path_;
  std::string displaced_path_;  // where an existing final dir waits during commit
  bool committed_ = false;
  std::optional<OnInterrupt> interrupt_;  // removes staging on SIGINT/SIGTERM
};

// runs_root/<stem>-001, -002, ...: the first that does not exist yet. Numbered,
// not timestamped, so the same sequence of runs gets the same names.
std::string fresh_run_directory(const std::string& runs_root, const std::string& stem);

// Writes a single file through a uniquely named temporary sibling and a rename, so
// readers see either the old contents or the new, never a partial file. For files
// inside directories npusim owns.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace npusim
