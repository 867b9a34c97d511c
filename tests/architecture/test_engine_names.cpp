// Engine names stay with their engine (issue 29): no compiler, front-end, CLI or simulation
// file writes an engine's name as a string literal, except inside that engine's own lowering
// folder (apps/.../lower_<owner>/). The names come from the registries, so a new engine is
// held to it at once. Files that still name engines are listed with their counts; the list
// only shrinks: a count that drops must be lowered, an entry no longer needed removed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "apps/compiler/emit/Lowering.h"
#include "architecture/SourceScan.h"
#include "sim/config/CoreSections.h"

using npusim::test::lex_line;
using npusim::test::source_files;
using npusim::test::source_lines;

namespace {

// Where engine names must not be written.
const std::vector<std::string> kFolders = {"apps/compiler", "apps/frontend", "apps/cli", "apps/simulation"};

// Engines that have no lowering of their own: the lowering that drives them.
const std::map<std::string, std::string> kDrivenBy = {{"fetch_ml", "shader"}};
// The DMA engines every lowering moves data with; their names are also the names of their
// ops (load, store), which shared code writes rightly.
const std::set<std::string> kTransport = {"load", "store"};

// Files that name engines today, with how many literals; lower or remove an entry as the
// names leave the file.
const std::map<std::string, std::size_t> kFilesNamingEngines = {
};

// Every lowering's name (an engine's, or dma: concat's data movement) and every engine a
// lowering drives.
std::vector<std::string> engine_names() {
  std::vector<std::string> names;
  for (const npusim::Lowering* lowering : npusim::lowerings()) names.push_back(lowering->name());
  for (const auto& [engine, owner] : kDrivenBy) names.push_back(engine);
  return names;
}

std::string owner_of(const std::string& engine) {
  const auto it = kDrivenBy.find(engine);
  return it == kDrivenBy.end() ? engine : it->second;
}

bool in_own_lowering(const std::string& file, const std::string& engine) {
  return file.find("/lower_" + owner_of(engine) + "/") != std::string::npos;
}

// Engine-name literals outside their owner's folder, per file.
std::map<std::string, std::size_t> files_naming_engines(const std::vector<std::string>& engines) {
  std::map<std::string, std::size_t> counts;
  for (const auto& folder : kFolders)
    for (const auto& file : source_files(folder)) {
      bool in_comment = false;
      for (const auto& line : source_lines(file))
        for (const auto& literal : lex_line(line, in_comment).strings)
          if (std::find(engines.begin(), engines.end(), literal) != engines.end() && !in_own_lowering(file, literal))
            ++counts[file];
    }
  return counts;
}

}  // namespace

TEST_CASE("engine names: the list comes from the engine and lowering registries", "[architecture]") {
  const std::vector<std::string> engines = engine_names();
  for (const char* expected : {"matrix", "vector", "shader", "fetch_ml", "sparse", "dma"}) {
    INFO(expected);
    CHECK(std::find(engines.begin(), engines.end(), expected) != engines.end());
  }
  // Every registered engine is a lowering's, driven by one, or transport, so none escapes the rule.
  for (const auto& engine : npusim::known_engine_names()) {
    INFO(engine << " has no lowering; register one, or say which lowering drives it in kDrivenBy");
    CHECK((kTransport.count(engine) || std::find(engines.begin(), engines.end(), engine) != engines.end()));
  }
  for (const auto& [engine, owner] : kDrivenBy) {
    INFO(engine << " is driven by " << owner << ", which is no lowering");
    CHECK(npusim::find_lowering(owner) != nullptr);
  }
}

TEST_CASE("engine names: no compiler, CLI or simulation file names an engine outside its lowering folder",
          "[architecture]") {
  const auto counts = files_naming_engines(engine_names());
  for (const auto& [file, count] : counts) {
    const auto listed = kFilesNamingEngines.find(file);
    INFO(file << " writes " << count << " engine names as string literals; reach the engine through its lowering");
    CHECK(count <= (listed == kFilesNamingEngines.end() ? 0 : listed->second));
  }
  for (const auto& [file, listed] : kFilesNamingEngines) {
    const auto it = counts.find(file);
    const std::size_t count = it == counts.end() ? 0 : it->second;
    INFO(file << " is listed with " << listed << " engine names and has " << count
              << (count == 0 ? "; remove its entry" : "; lower its count"));
    CHECK(count >= listed);
  }
}

// The counter itself, on lines whose literals are counted by hand.
TEST_CASE("engine names: only string literals count, not comments or longer names", "[architecture]") {
  bool in_comment = false;
  std::vector<std::string> literals;
  for (const char* line : {R"(run("matrix", "vector_x"); // "shader")", R"(/* "sparse" */ char q = '"'; f("dma");)",
                           R"(g("say \"matrix\"");)"}) {
    const auto strings = lex_line(line, in_comment).strings;
    literals.insert(literals.end(), strings.begin(), strings.end());
  }
  CHECK(literals == std::vector<std::string>{"matrix", "vector_x", "dma", R"(say \"matrix\")"});
}
