#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "e2e/NpusimProcess.h"
#include "sim/common/InputError.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

TEST_CASE("input errors shorten a huge echoed value, keeping head and tail", "[input]") {
  const std::string value(100000, 'x');
  const std::string reason = "\"" + value + "\" is not a number; allowed 1 to 10000";
  const npusim::InputError e("c.json", "/chip/clock_mhz", reason);
  CHECK(std::string(e.what()).size() < 800);
  CHECK_THAT(e.reason(), StartsWith("\"xxx") && Contains("characters cut") && EndsWith("allowed 1 to 10000"));
  CHECK_THAT(e.reason(), Contains(" of " + std::to_string(reason.size()) + " characters cut"));  // original length
  // A multi-byte character is never split at a cut.
  std::string accents;
  for (int i = 0; i < 2000; ++i) accents += "\xC3\xA9";  // é
  const npusim::InputError u("f", "", accents);
  const std::string r = u.reason();
  const std::size_t cut = r.find(" [...");
  REQUIRE(cut != std::string::npos);
  CHECK(cut % 2 == 0);
  CHECK((r.size() - r.find("...] ") - 5) % 2 == 0);
  // Short messages are left alone.
  CHECK(npusim::InputError("f", "line 1", "bad").reason() == "bad");
}

TEST_CASE("audit: a 100 KB value in a config gives a short one-line error", "[bad-input]") {
  const std::string dir = scratch_dir("long-error");
  write_text(dir + "/c.json", "{\"chip\": {\"clock_mhz\": \"" + std::string(100000, '9') + "\"}}");
  const NpusimResult r = run_npusim({"validate", dir + "/c.json"});
  INFO(r.output.substr(0, 2000));
  CHECK(r.status == 2);
  CHECK(r.output.size() < 1200);
  CHECK(r.output.find("clock_mhz") != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("audit: a 100 KB option value gives a short message with its length", "[bad-input]") {
  // CLI11 echoed the whole value of a bad option; the message now keeps its ends.
  const std::string value(100000, 'x');
  const NpusimResult r = run_npusim({"run", "--dependency-mode", value});
  INFO(r.output.substr(0, 2000));
  CHECK(r.status == 2);
  CHECK(r.output.size() < 1200);
  CHECK_THAT(r.output, Contains("--dependency-mode") && Contains("of 100") && Contains("characters cut"));
}

TEST_CASE("input errors escape control characters in every part and join library text into one line", "[input]") {
  using npusim::escaped_controls;
  CHECK(escaped_controls("a\nb\r\tc\x1b[2J\x07\x7f") == "a\\nb\\r\\tc\\x1b[2J\\x07\\x7f");
  CHECK(escaped_controls("csi \xC2\x9B" "31m, \xC3\xA9 stays") == "csi \\u009b31m, \xC3\xA9 stays");  // C1 CSI, é
  CHECK(escaped_controls(escaped_controls("x\ny\\z")) == "x\\ny\\z");  // escaping twice changes nothing
  CHECK(npusim::joined_lines("first\n\n==> Context:  node\r\n  r\n") == "first ==> Context:  node r");
  const npusim::InputError e("f\x1b.json", "/a\nb", "got '\x1b]0;title\x07'");
  CHECK(std::string(e.what()) == "f\\x1b.json: /a\\nb: got '\\x1b]0;title\\x07'");
  CHECK(npusim::InputError("f", e.location(), e.reason()).reason() == e.reason());  // re-wrapped unchanged
}

TEST_CASE("audit: a config key or trace value with ESC or a newline is echoed escaped on one line", "[bad-input]") {
  const std::string dir = scratch_dir("escaped-echo");
  write_text(dir + "/c.json", "{\"chip\": {\"clock_mhz\": 1000, \"na\\u001b]0;pwned\\u0007\\nme\": 3}}");
  write_text(dir + "/t.jsonl", "{\"format\":\"npusim-trace\",\"version\":1}\n"
                               "{\"id\":0,\"op\":\"lo\\u001b[2Jad\\nx\",\"inputs\":[],\"outputs\":[]}\n");
  const std::vector<std::pair<std::string, std::string>> echoes = {
      {"c.json", "unknown key 'na\\x1b]0;pwned\\x07\\nme'"}, {"t.jsonl", "unknown op 'lo\\x1b[2Jad\\nx'"}};
  for (const auto& [file, echo] : echoes) {
    const NpusimResult r = run_npusim({"validate", dir + "/" + file});
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, StartsWith("error: ") && Contains(echo));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK(r.output.find('\x1b') == std::string::npos);
  }
}

TEST_CASE("audit: a bad option value with ESC or a newline is one escaped line", "[bad-input]") {
  // CLI11 echoed it raw, then added a second line ("Run with --help for more information.").
  const NpusimResult r = run_npusim({"run", "--dependency-mode", "x\x1b[31m\ny"});
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, StartsWith("error: --dependency-mode: x\\x1b[31m\\ny not in {") && Contains("--help"));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}
