// npusim diff --format table|markdown|junit (issue 35): the same comparison as a Markdown
// table for a CI job summary and as JUnit XML for a CI test report.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>
#include <sstream>

#include "apps/regression/DiffFormats.h"
#include "apps/regression/RunDiff.h"
#include "e2e/NpusimProcess.h"

using nlohmann::ordered_json;
using namespace npusim;

namespace {

RunOutputs run_of(ordered_json report, std::vector<std::string> ends) {
  RunOutputs run;
  run.report = std::move(report);
  run.instructions.header = {"id", "op", "end"};
  for (std::size_t i = 0; i < ends.size(); ++i) run.instructions.rows.push_back({std::to_string(i), "load", ends[i]});
  return run;
}

// A: two engines, one memory, two instructions. B moves total_cycles, core0.matrix's busy and
// stall, the NRAM's capacity and instruction 1's end: 5 figures in 4 of 6 groups.
DiffResult sample_diff(double tolerance_pct = 0) {
  auto report = [](int cycles, int busy, int stall, int capacity) {
    return ordered_json{{"total_cycles", cycles},
                        {"clock_mhz", 1000},
                        {"engines", {{{"name", "core0.load"}, {"busy", 10}, {"stall", 0}},
                                     {{"name", "core0.matrix"}, {"busy", busy}, {"stall", stall}}}},
                        {"memories", {{{"name", "core0.nram"}, {"capacity_bytes", capacity}, {"bytes_read", 1000}}}}};
  };
  DiffOptions options;
  options.tolerance_pct = tolerance_pct;
  return diff_runs(run_of(report(100, 50, 5, 524288), {"7", "9"}), run_of(report(120, 60, 6, 1048576), {"7", "11"}),
                   options);
}

std::string printed(DiffFormat format, const DiffResult& result, std::size_t max_rows = 50,
                    double tolerance_pct = 0) {
  std::ostringstream out;
  print_diff(out, format, result, DiffShown{"runs/a", "runs/b", tolerance_pct, max_rows});
  return out.str();
}

std::size_t count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return std::size_t(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

std::vector<std::string> lines_starting(const std::string& text, const std::string& start) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(start, 0) == 0) found.push_back(line);
  return found;
}

// An XML parser that is not ours (Python's) reads the file and counts its elements.
std::string parsed_by_python(const std::string& xml_text) {
  const std::string dir = scratch_dir("junit-parse");
  write_text(dir + "/diff.xml", xml_text);
  const std::string script =
      "import sys, xml.etree.ElementTree as E\n"
      "r = E.parse(sys.argv[1]).getroot()\n"
      "print(r.tag, r.get('tests'), r.get('failures'), len(r.findall('testsuite')),"
      " len(r.findall('.//testcase')), len(r.findall('.//failure')))\n";
  write_text(dir + "/count.py", script);
  const std::string command = "/usr/bin/python3 " + dir + "/count.py " + dir + "/diff.xml > " + dir + "/out.txt 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  return read_text(dir + "/out.txt");
}

}  // namespace

TEST_CASE("diff groups: one per compared item, holding its differences", "[diff][diff-format]") {
  const DiffResult result = sample_diff();
  REQUIRE(result.groups.size() == 6);  // total, 2 engines, 1 memory, 2 instructions
  CHECK(result.differences.size() == 5);
  const auto& matrix = result.groups[2];
  CHECK(matrix.section == "engine");
  CHECK(matrix.item == "core0.matrix");
  CHECK(matrix.figures == 3);  // name, busy, stall
  REQUIRE(matrix.differences == 2);
  CHECK(result.differences[matrix.first_difference].metric == "busy");
  CHECK(result.differences[matrix.first_difference + 1].metric == "stall");
  std::size_t figures = 0;
  for (const auto& g : result.groups) figures += g.figures;
  CHECK(figures == result.compared);
}

TEST_CASE("diff --format junit: a test case per group, a failure per moved figure", "[diff][diff-format]") {
  const std::string xml = printed(DiffFormat::junit, sample_diff());
  INFO(xml);
  CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 0) == 0);
  CHECK(count(xml, "<testsuite ") == 4);  // total, engine, memory, instruction
  CHECK(count(xml, "<testcase ") == 6);
  CHECK(count(xml, "<failure ") == 5);
  CHECK(count(xml, "<testsuites [^>]*tests=\"6\" failures=\"4\"") == 1);  // 4 test cases fail
  CHECK(count(xml, "<testsuite name=\"engine\" tests=\"2\" failures=\"1\"") == 1);
  CHECK(count(xml, "<testcase classname=\"engine\" name=\"core0.load\"/>") == 1);  // passed: empty
  CHECK(xml.find("<failure type=\"moved\" message=\"busy: 50 -> 60 (+20.00%)\">") != std::string::npos);
  CHECK(xml.find("<testcase classname=\"total\" name=\"total\">") != std::string::npos);
  CHECK(parsed_by_python(xml) == "testsuites 6 4 4 6 5\n");

  SECTION("within the tolerance nothing fails, and every group is still a test case") {
    const std::string wide = printed(DiffFormat::junit, sample_diff(1000));
    CHECK(count(wide, "<testcase ") == 6);
    CHECK(count(wide, "<failure ") == 0);
    CHECK(parsed_by_python(wide) == "testsuites 6 0 4 6 0\n");
  }
  SECTION("every difference is listed, whatever --max-rows") {
    CHECK(count(printed(DiffFormat::junit, sample_diff(), 1), "<failure ") == 5);
  }
}

TEST_CASE("diff --format junit escapes names XML cannot hold as they are", "[diff][diff-format]") {
  const ordered_json a = {{"layers", {{{"name", "a<b>&\"c'\x01"}, {"cycles", 1}}}}};
  const ordered_json b = {{"layers", {{{"name", "a<b>&\"c'\x01"}, {"cycles", 2}}}}};
  const std::string xml = printed(DiffFormat::junit, diff_runs(run_of(a, {}), run_of(b, {}), DiffOptions{}));
  INFO(xml);
  CHECK(xml.find("name=\"a&lt;b&gt;&amp;&quot;c&apos;?\"") != std::string::npos);
  CHECK(parsed_by_python(xml) == "testsuites 1 1 1 1 1\n");
}

TEST_CASE("diff --format junit: U+FFFE, U+FFFF, surrogates and stray bytes become '?' and the XML parses",
          "[diff][diff-format]") {
  // Issue 42: "\xEF\xBF\xBE" (U+FFFE) passed through and Python's parser refused the file.
  const std::string name = "n\xEF\xBF\xBE-\xEF\xBF\xBF-\xED\xA0\x80-\xC0\xAF-\xFF-\xE2\x82\xAC-\xF0\x9F\x98\x80";
  const ordered_json a = {{"layers", {{{"name", name}, {"cycles", 1}}}}};
  const ordered_json b = {{"layers", {{{"name", name}, {"cycles", 2}}}}};
  const std::string xml = printed(DiffFormat::junit, diff_runs(run_of(a, {}), run_of(b, {}), DiffOptions{}));
  INFO(xml);
  // Written "?" "-" apart, so that no "??-" trigraph is spelt.
  CHECK(xml.find("name=\"n?-?-?" "?" "?-?" "?-?-\xE2\x82\xAC-\xF0\x9F\x98\x80\"") != std::string::npos);  // € and 😀 kept
  CHECK(parsed_by_python(xml) == "testsuites 1 1 1 1 1\n");
}

TEST_CASE("diff --format markdown: a verdict heading, the runs and one table row per difference",
          "[diff][diff-format]") {
  const std::string md = printed(DiffFormat::markdown, sample_diff());
  INFO(md);
  CHECK(md.rfind("### npusim diff: 5 of 15 figures differ (exact): engine 2, instruction 1, memory 1, total 1\n\n", 0) ==
        0);
  CHECK(md.find("\n- A: `runs/a`\n- B: `runs/b`\n") != std::string::npos);
  const auto rows = lines_starting(md, "| ");
  REQUIRE(rows.size() == 1 + 5);  // header and the differences
  CHECK(rows[0] == "| section | item | metric | A | B | change |");
  CHECK(lines_starting(md, "|---|---|---|--:|--:|--:|").size() == 1);
  CHECK(rows[1] == "| total | - | total_cycles | 100 | 120 | +20.00% |");
  CHECK(rows[4] == "| memory | core0.nram | capacity_bytes | 512 KiB | 1 MiB | +100.00% |");
  CHECK(rows[5] == "| instruction | 1 | end | 9 | 11 | +22.22% |");

  SECTION("--max-rows bounds the table and says how many are left out") {
    const std::string two = printed(DiffFormat::markdown, sample_diff(), 2);
    CHECK(lines_starting(two, "| ").size() == 1 + 2);
    CHECK(two.find("\n3 more not shown (--max-rows 0 shows all)\n") != std::string::npos);
  }
  SECTION("no differences: the verdict and the runs, no table") {
    const std::string same = printed(DiffFormat::markdown, sample_diff(1000), 50, 1000);
    CHECK(same == "### npusim diff: no differences (tolerance 1000%): 15 figures compared\n\n"
                  "- A: `runs/a`\n- B: `runs/b`\n");
  }
  SECTION("a '|' in a name does not split the cell") {
    const ordered_json a = {{"layers", {{{"name", "x|y"}, {"cycles", 1}}}}};
    const ordered_json b = {{"layers", {{{"name", "x|y"}, {"cycles", 2}}}}};
    const std::string piped = printed(DiffFormat::markdown, diff_runs(run_of(a, {}), run_of(b, {}), DiffOptions{}));
    CHECK(lines_starting(piped, "| layer ")[0] == "| layer | x\\|y | cycles | 1 | 2 | +100.00% |");
  }
}

TEST_CASE("diff --format table: byte counts in binary units, exact when rounding would hide the change",
          "[diff][diff-format][byte-size]") {
  const std::string table = printed(DiffFormat::table, sample_diff());
  INFO(table);
  CHECK(std::regex_search(table, std::regex("\n  memory +core0\\.nram +capacity_bytes +512 KiB +1 MiB +\\+100\\.00%\n")));
  CHECK(table.rfind("A: runs/a\nB: runs/b\n", 0) == 0);

  const ordered_json a = {{"memories", {{{"name", "dram"}, {"bytes_read", 26542080}}}}};
  const ordered_json b = {{"memories", {{{"name", "dram"}, {"bytes_read", 26542081}}}}};
  const std::string close = printed(DiffFormat::table, diff_runs(run_of(a, {}), run_of(b, {}), DiffOptions{}));
  INFO(close);  // both are 25.3 MiB to one decimal
  CHECK(std::regex_search(close, std::regex("bytes_read +26542080 +26542081 ")));
}

TEST_CASE("npusim diff --format: junit and markdown from the command line, same exit status", "[diff][diff-format]") {
  const std::string dir = scratch_dir("diff-format-cli");
  const std::string conv = source_path("traces/examples/conv.jsonl");
  const std::string two_cus = dir + "/two-cus.json";
  write_text(two_cus, "{\"extends\": \"" + source_path("configs/default.json") +
                          "\", \"core\": {\"matrix\": {\"cus_per_slave\": 2}}}\n");
  for (const auto& [name, config] : {std::pair<std::string, std::string>{"a", source_path("configs/default.json")},
                                     {"b", two_cus}}) {
    auto r = run_npusim({"run", "--quiet", "--config", config, "--trace", conv, "--out", dir + "/" + name});
    REQUIRE(r.status == 0);
  }
  auto junit = run_npusim({"diff", dir + "/a", dir + "/b", "--format", "junit"});
  INFO(junit.output);
  CHECK(junit.status == 1);
  CHECK(junit.output.rfind("<?xml ", 0) == 0);  // the XML alone, nothing before it
  CHECK(count(junit.output, "<failure ") > 0);
  auto same = run_npusim({"diff", dir + "/a", dir + "/a", "--format", "junit"});
  CHECK(same.status == 0);
  CHECK(count(same.output, "<failure ") == 0);
  CHECK(count(same.output, "<testcase ") > 0);
  auto md = run_npusim({"diff", dir + "/a", dir + "/b", "--format", "markdown"});
  CHECK(md.status == 1);
  CHECK(md.output.rfind("### npusim diff: ", 0) == 0);
  auto bad = run_npusim({"diff", dir + "/a", dir + "/b", "--format", "html"});
  CHECK(bad.status == 2);
}
