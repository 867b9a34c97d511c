#pragma once
#include <filesystem>
#include <string>

namespace npusim {

// npusim replaces or reuses only directories it made itself. Each one holds a
// marker file, written before anything else goes in; a directory without it is the
// user's, and is never deleted, renamed or written into.
// TraceData: the OUT.data/ directory beside a compiled trace that carries an ONNX
// model's weights.
enum class OutputKind { Run, Sweep, TraceData };

// ".npusim-run", ".npusim-sweep" or ".npusim-trace-data".
const char* marker_name(OutputKind kind);
void write_marker(const std::filesystem::path& dir, OutputKind kind);
// True when `dir` is a real directory holding the kind's marker as a regular file.
bool has_marker(const std::filesystem::path& dir, OutputKind kind);

// The directory holding `path`: its parent, or "." for a bare name.
std::filesystem::path parent_directory(const std::filesystem::path& path);

// The place the user named, normalized: "runs/a/" and "runs/a" are one place.
std::filesystem::path output_path(const std::string& given);

// InputError naming `given` (as the user typed it, for option `option`) unless it
// names a place npusim may write: not ".", "..", "/" or empty, and either absent,
// an empty directory, or a directory with the kind's marker (a run directory:
// holding nothing but the files npusim writes into one).
void check_output_place(const std::string& given, OutputKind kind, const std::string& option);
// Only the first part of that: InputError unless `given` names a place at all.
void check_place_name(const std::string& given, OutputKind kind, const std::string& option);

// InputError unless `path` is absent, an empty directory or marked with `kind`: for
// npusim's own hidden siblings (staging, displaced), which a crash may leave behind.
void check_leftover(const std::filesystem::path& path, OutputKind kind);

// Removes what a crashed writer of `place` left beside it: its staging and displaced
// directories (.<name>.partial, .<name>.<pid>-<n>.partial, .<name>.old, ...), each only
// if check_leftover accepts it. Call it only while holding the place's PlaceLock.
void remove_leftovers(const std::filesystem::path& place, OutputKind kind);
// The same for a single file written through AtomicFile (`compile -o`): removes the
// regular files .<name>.<pid>-<n>.partial a killed writer left beside `target`.
void remove_leftover_files(const std::filesystem::path& target);
// Removes a run directory of npusim's (a sweep's failed point) after the same check
// as check_output_place: one holding anything npusim does not write is refused; a
// missing one is nothing to do. Call it while holding the place's PlaceLock.
void remove_run_directory(const std::filesystem::path& dir);
// True for ".<name>.<pid>-<n>.partial", the temporary AtomicFile writes beside `name`.
bool is_temporary_name(const std::string& entry, const std::string& name);
// True for the names remove_leftovers removes beside a place called `name`.
bool is_leftover_name(const std::string& entry, const std::string& name);

// Creates the parents of `path`; an InputError naming `path` when that fails
// (a parent is a regular file, the place is read-only, ...).
void create_parents(const std::filesystem::path& path, const std::string& given);

}  // namespace npusim
