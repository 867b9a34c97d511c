// ONNX import (protobuf parse, checker, shape inference, op mapping), then the
// compiler's first instructions, as fuzz_workload does for JSON and CSV.
#include "FuzzInput.h"
#include "apps/compiler/TraceEmitter.h"
#include "apps/frontend/WorkloadReader.h"
#include "sim/config/ConfigLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const npusim::HardwareConfig cfg = npusim::default_hardware_config();
  const std::string path = npusim::fuzz::write_input_file(data, size, "model.onnx");
  npusim::fuzz::expect_only_input_errors([&] {
    npusim::TraceEmitter emitter(npusim::read_workload(path), cfg);
    npusim::Instruction inst;
    for (int i = 0; i < 2000 && emitter.next(inst); ++i) {
    }
  });
  return 0;
}
