#include <catch2/catch.hpp>

#include <string>

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
