// The source layout keeps its layers (docs/architecture.md): sim/ below models/
// below apps/, no two folders that include each other (directly or round a
// loop), and no folder name used twice.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace {

using Graph = std::map<std::string, std::set<std::string>>;  // folder -> folders it includes

Graph include_graph() {
  Graph graph;
  const std::regex include(R"(^#include "((sim|models|apps)/[^/]+)/)");
  for (const char* top : {"sim", "models", "apps"})
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(NPUSIM_SOURCE_DIR) / top)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".h" && ext != ".cpp") continue;
      const std::string folder = fs::relative(entry.path().parent_path(), NPUSIM_SOURCE_DIR).generic_string();
      graph[folder];
      std::ifstream in(entry.path());
      std::smatch m;
      for (std::string line; std::getline(in, line);)
        if (std::regex_search(line, m, include) && m[1] != folder) graph[folder].insert(m[1]);
    }
  return graph;
}

int layer(const std::string& folder) {
  const std::string top = folder.substr(0, folder.find('/'));
  return top == "sim" ? 0 : top == "models" ? 1 : 2;
}

bool reaches(const Graph& g, const std::string& from, const std::string& to, std::set<std::string>& seen) {
  auto it = g.find(from);
  if (it == g.end()) return false;
  for (const auto& next : it->second) {
    if (next == to) return true;
    if (seen.insert(next).second && reaches(g, next, to, seen)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("layout: sim/ never includes models/ or apps/, models/ never includes apps/", "[architecture]") {
  const Graph g = include_graph();
  REQUIRE(g.size() > 20);
  for (const auto& [folder, uses] : g)
    for (const auto& used : uses) {
      INFO(folder << " includes " << used);
      CHECK(layer(used) <= layer(folder));
    }
}

TEST_CASE("layout: no two folders depend on each other, even round a loop", "[architecture]") {
  const Graph g = include_graph();
  for (const auto& [folder, uses] : g) {
    std::set<std::string> seen;
    INFO(folder << " is on an include loop");
    CHECK_FALSE(reaches(g, folder, folder, seen));
  }
}

TEST_CASE("layout: no folder name appears twice", "[architecture]") {
  std::map<std::string, std::string> first;
  for (const auto& [folder, uses] : include_graph()) {
    const std::string name = fs::path(folder).filename().string();
    const auto [earlier, unique] = first.emplace(name, folder);
    INFO(folder << " and " << earlier->second);
    CHECK(unique);
  }
}
