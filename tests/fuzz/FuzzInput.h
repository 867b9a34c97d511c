#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/common/InputError.h"

namespace npusim::fuzz {

// Readers that take a path read the fuzzer's bytes from a file in this process's
// private scratch directory (made once, removed at exit). `name` keeps the
// extension a reader may look at (".csv", ".jsonl").
std::string write_input_file(const std::uint8_t* data, std::size_t size, const std::string& name);

// An InputError is the reader's correct answer to bad bytes. Anything else that
// escapes (another exception, a crash, a hang, a huge allocation) is a finding.
template <class Read>
void expect_only_input_errors(Read&& read) {
  try {
    read();
  } catch (const InputError&) {
  }
}

}  // namespace npusim::fuzz
