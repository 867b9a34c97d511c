#include "sim/report/OutputOwnership.h"

#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace fs = std::filesystem;

namespace {

// Per OutputKind, in its order: the marker file's name and what the directory is called.
struct KindNames {
  const char* marker;
  const char* noun;
};
constexpr KindNames kKindNames[] = {{".npusim-run", "run directory"},
                                    {".npusim-sweep", "sweep directory"},
                                    {".npusim-trace-data", "trace's weights directory"}};
static_assert(std::size(kKindNames) == static_cast<std::size_t>(OutputKind::TraceData) + 1, "one row per kind");

const char* noun(OutputKind kind) { return kKindNames[static_cast<int>(kind)].noun; }

const char* kindly_refuse =
    "npusim never deletes or writes into what it did not make: choose another path, or move or delete it yourself";

bool empty_directory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(fs::symlink_status(p, ec)) && fs::is_empty(p, ec) && !ec;
}

// Why `p` (which exists) cannot be taken, or "" when it can.
std::string refusal(const fs::path& p, OutputKind kind) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (ec) return "cannot inspect it: " + ec.message();
  if (fs::is_symlink(st)) return "it is a symbolic link";
  if (fs::is_regular_file(st)) return "it is an existing file";
  if (!fs::is_directory(st)) return "it is a device, pipe or socket";
  if (has_marker(p, kind) || empty_directory(p)) return "";
  return fmt::format("it is a directory that npusim did not make (no {} marker inside)", marker_name(kind));
}

}  // namespace

const char* marker_name(OutputKind kind) { return kKindNames[static_cast<int>(kind)].marker; }

void write_marker(const fs::path& dir, OutputKind kind) {
  CreationGuard guard;
  std::ofstream marker(dir / marker_name(kind), std::ios::binary | std::ios::trunc);
  marker << fmt::format("This {} was made by npusim; the next npusim run with the same output path may "
                        "replace it.\n",
                        noun(kind));
  marker.close();
  if (!marker) throw InputError((dir / marker_name(kind)).string(), "", "cannot write the file");
}

bool has_marker(const fs::path& dir, OutputKind kind) {
  std::error_code ec;
  return fs::is_directory(fs::symlink_status(dir, ec)) &&
         fs::is_regular_file(fs::symlink_status(dir / marker_name(kind), ec));
}

fs::path output_path(const std::string& given) {
  const fs::path p = fs::path(given).lexically_normal();
  return p.has_filename() ? p : p.parent_path();  // "runs/a/" and "runs/a" are one place
}

void check_output_place(const std::string& given, OutputKind kind, const std::string& option) {
  const fs::path p = output_path(given);
  const std::string last = p.filename().string();
  if (given.empty() || p.empty() || last.empty() || last == "." || last == "..")
    throw InputError(given, option,
                     fmt::format("not a place for a {}: give a path that names a new directory, e.g. runs/mine",
                                 noun(kind)));
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(p, ec))) return;
  const std::string why = refusal(p, kind);
  if (!why.empty()) throw InputError(given, option, fmt::format("{}; {}", why, kindly_refuse));
}

void check_leftover(const fs::path& path, OutputKind kind) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return;
  const std::string why = refusal(path, kind);
  if (!why.empty())
    throw InputError(path.string(), "",
                     fmt::format("npusim needs this name for its staging area, but {}; {}", why, kindly_refuse));
}

void create_parents(const fs::path& path, const std::string& given) {
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  CreationGuard guard;
  fs::create_directories(parent, ec);
  if (ec) throw InputError(given, "", fmt::format("cannot create its parent directory {}: {}", parent.string(), ec.message()));
}

}  // namespace npusim
