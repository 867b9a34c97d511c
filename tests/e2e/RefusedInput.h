#pragma once
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "e2e/NpusimProcess.h"

// Bad input: exit status 2, one "error: " message holding every phrase.
inline void check_refused(const NpusimResult& r, const std::vector<std::string>& phrases) {
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.rfind("error: ", 0) == 0);
  for (const auto& p : phrases) CHECK(r.output.find(p) != std::string::npos);
}
