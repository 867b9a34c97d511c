#include "sim/report/OutputOwnership.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

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

// An entry of `dir` that a crashed or running npusim writer of `dir` itself keeps
// there: staging inside a directory written in place (OutputDirectory).
bool own_leftover(const fs::path& dir, const fs::path& entry) {
  return is_leftover_name(entry.filename().string(), dir.filename().string());
}

// Empty but for npusim's own staging leftovers.
bool empty_directory(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(p, ec))) return false;
  for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec))
    if (!own_leftover(p, it->path())) return false;
  return !ec;
}

// What a run writes into its directory (and a sweep beside it in a point's); the
// only files a replaced run directory may hold, so nothing a user added is lost.
constexpr const char* kRunFiles[] = {"report.json", "instructions.csv", "timeline.json", "point.json",
                                     "config.json", "workload.json",    "error.txt"};

bool run_file(const fs::path& relative, bool is_dir) {
  const std::string top = relative.begin()->string();
  if (top == "tensors") return is_dir ? relative == "tensors" : relative.extension() == ".npy";
  if (is_dir) return false;
  if (relative == marker_name(OutputKind::Run)) return true;
  if (relative != top) return false;
  // A run file, or the temporary a killed sweep left while writing one (AtomicFile).
  return std::any_of(std::begin(kRunFiles), std::end(kRunFiles),
                     [&](const char* f) { return top == f || is_temporary_name(top, f); });
}

// The first entries inside a run directory that npusim does not write, relative to it.
std::vector<std::string> foreign_entries(const fs::path& dir) {
  std::vector<std::string> foreign;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end && foreign.size() < 4; it.increment(ec)) {
    if (it.depth() == 0 && own_leftover(dir, it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    const fs::path relative = it->path().lexically_relative(dir);
    const bool is_dir = it->is_directory(ec) && !it->is_symlink(ec);
    if (!run_file(relative, is_dir)) foreign.push_back(relative.string());
  }
  if (ec) foreign.push_back(fmt::format("(cannot list it: {})", ec.message()));
  return foreign;
}

std::string foreign_refusal(const fs::path& dir) {
  const std::vector<std::string> foreign = foreign_entries(dir);
  if (foreign.empty()) return "";
  return fmt::format("it is a run directory of npusim's, but it also holds files npusim did not write ({}{}), "
                     "which replacing it would delete",
                     fmt::join(foreign, ", "), foreign.size() >= 4 ? ", ..." : "");
}

// Why `p` (which exists) cannot be taken, or "" when it can.
// `whole`: the directory is to be replaced, so it must hold only npusim's files; a
// staging leftover is judged by its marker alone (it holds half-written files).
std::string refusal(const fs::path& p, OutputKind kind, bool whole) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (ec) return "cannot inspect it: " + ec.message();
  if (fs::is_symlink(st)) return "it is a symbolic link";
  if (fs::is_regular_file(st)) return "it is an existing file";
  if (!fs::is_directory(st)) return "it is a device, pipe or socket";
  if (empty_directory(p)) return "";
  if (has_marker(p, kind)) return whole && kind == OutputKind::Run ? foreign_refusal(p) : "";
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

fs::path parent_directory(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

fs::path output_path(const std::string& given) {
  const fs::path p = fs::path(given).lexically_normal();
  return p.has_filename() ? p : p.parent_path();  // "runs/a/" and "runs/a" are one place
}

namespace {

// The longest name the file system under `p` takes (NAME_MAX), asked of its nearest
// existing ancestor; 255 (Linux's) when none answers.
std::size_t longest_name(const fs::path& p) {
  std::error_code ec;
  fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  while (!fs::is_directory(dir, ec) && dir.has_parent_path() && dir != dir.parent_path()) dir = dir.parent_path();
  const long limit = pathconf(dir.c_str(), _PC_NAME_MAX);
  return limit > 0 ? static_cast<std::size_t>(limit) : 255;
}

// Beside a place called N, npusim writes ".N.<pid>-<n>.partial" (pid up to 10 digits, n up
// to 20) and ".N.lock": a name that leaves no room for them fails midway, after parents
// were made, so it is refused before anything is.
constexpr std::size_t kLongestSuffix = 1 + 1 + 10 + 1 + 20 + 8;

}  // namespace

void check_place_name(const std::string& given, OutputKind kind, const std::string& option) {
  const fs::path p = output_path(given);
  const std::string last = p.filename().string();
  if (given.empty() || p.empty() || last.empty() || last == "." || last == "..")
    throw InputError(given, option,
                     fmt::format("not a place for a {}: give a path that names a new directory, e.g. runs/mine",
                                 noun(kind)));
  const std::size_t limit = longest_name(p);
  if (last.size() + kLongestSuffix > limit)
    throw InputError(given, option,
                     fmt::format("a last name of {} bytes leaves no room for the staging names npusim writes beside "
                                 "it (the file system takes {}); give one of at most {}",
                                 last.size(), limit, limit > kLongestSuffix ? limit - kLongestSuffix : 0));
}

void check_output_place(const std::string& given, OutputKind kind, const std::string& option) {
  check_place_name(given, kind, option);
  const fs::path p = output_path(given);
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(p, ec))) return;
  const std::string why = refusal(p, kind, true);
  if (!why.empty()) throw InputError(given, option, fmt::format("{}; {}", why, kindly_refuse));
}

namespace {

bool all_digits(const std::string& t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); });
}

// True for ".<name>.<pid>-<n><suffix>"; `bare` also accepts ".<name><suffix>" (the
// fixed names npusim used before staging was private).
bool is_writer_name(const std::string& entry, const std::string& name, const std::string& suffix, bool bare) {
  const std::string head = "." + name;
  if (entry.size() < head.size() + suffix.size() || entry.compare(0, head.size(), head) != 0) return false;
  if (entry.compare(entry.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  const std::string middle = entry.substr(head.size(), entry.size() - head.size() - suffix.size());
  if (middle.empty()) return bare;
  const auto dash = middle.find('-');
  return middle[0] == '.' && dash != std::string::npos && all_digits(middle.substr(1, dash - 1)) &&
         all_digits(middle.substr(dash + 1));
}

}  // namespace

bool is_leftover_name(const std::string& entry, const std::string& name) {
  return is_writer_name(entry, name, ".partial", true) || is_writer_name(entry, name, ".old", true);
}

bool is_temporary_name(const std::string& entry, const std::string& name) {
  return is_writer_name(entry, name, ".partial", false);
}

namespace {

// The entries of `dir` that are leftovers of a crashed writer of a place called `name`.
std::vector<fs::path> leftovers_in(const fs::path& dir, const std::string& name) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (is_leftover_name(it->path().filename().string(), name)) found.push_back(it->path());
  return found;
}

}  // namespace

void remove_leftovers(const fs::path& place, OutputKind kind) {
  const std::string name = place.filename().string();
  std::vector<fs::path> found = leftovers_in(parent_directory(place), name);
  std::error_code ec;
  if (fs::is_directory(fs::symlink_status(place, ec))) {  // staging inside a directory written in place
    const std::vector<fs::path> inside = leftovers_in(place, name);
    found.insert(found.end(), inside.begin(), inside.end());
  }
  for (const fs::path& p : found) {
    check_leftover(p, kind);
    fs::remove_all(p, ec);
    if (ec) throw InputError(p.string(), "", fmt::format("cannot remove this leftover of a crashed run: {}", ec.message()));
  }
}

void remove_leftover_files(const fs::path& target) {
  const fs::path dir = parent_directory(target);
  for (const fs::path& p : leftovers_in(dir, target.filename().string())) {
    std::error_code ec;
    if (is_temporary_name(p.filename().string(), target.filename().string()) &&
        fs::is_regular_file(fs::symlink_status(p, ec)))
      fs::remove(p, ec);
  }
}

void remove_run_directory(const fs::path& dir) {
  check_output_place(dir.string(), OutputKind::Run, "");
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) throw InputError(dir.string(), "", fmt::format("cannot remove it: {}", ec.message()));
}

void check_leftover(const fs::path& path, OutputKind kind) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return;
  const std::string why = refusal(path, kind, false);
  if (!why.empty())
    throw InputError(path.string(), "",
                     fmt::format("npusim needs this name for its staging area, but {}; {}", why, kindly_refuse));
}

namespace {

// `dir` and those of its ancestors that do not exist yet, deepest first. One whose name the
// file system refuses (too long) counts as missing: creating it fails, not finding it.
std::vector<fs::path> missing_ancestors(const fs::path& dir) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = dir; !p.empty() && !fs::exists(fs::symlink_status(p, ec)); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  return missing;
}

}  // namespace

void create_parents(const fs::path& path, const std::string& given) {
  const fs::path parent = parent_directory(path);
  const std::vector<fs::path> missing = missing_ancestors(parent);
  std::error_code ec;
  CreationGuard guard;
  fs::create_directories(parent, ec);
  if (!ec) return;
  // Made part of the way (a deeper name too long, say): what this call made goes again.
  // remove() takes only an empty directory, so nothing another run put there meanwhile.
  std::error_code ignored;
  for (const fs::path& p : missing) fs::remove(p, ignored);
  throw InputError(given, "", fmt::format("cannot create its parent directory {}: {}", parent.string(), ec.message()));
}

}  // namespace npusim
