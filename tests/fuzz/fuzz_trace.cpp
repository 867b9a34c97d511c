// Trace line parser and reader: header, every instruction line, ids and dependencies.
#include "FuzzInput.h"
#include "sim/config/ConfigLoader.h"
#include "sim/trace/TraceReader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const npusim::HardwareConfig cfg = npusim::default_hardware_config();
  const std::string path = npusim::fuzz::write_input_file(data, size, "trace.jsonl");
  npusim::fuzz::expect_only_input_errors([&] { npusim::validate_trace(path, cfg); });
  return 0;
}
