// Workload reader (JSON, or a SCALE-Sim CSV when the first byte is odd), then the
// compiler's planning and its first instructions: reading alone would miss layers
// that parse but cannot be tiled.
#include "FuzzInput.h"
#include "apps/compiler/TraceEmitter.h"
#include "apps/frontend/WorkloadReader.h"
#include "sim/config/ConfigLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const npusim::HardwareConfig cfg = npusim::default_hardware_config();
  if (size == 0) return 0;
  const bool csv = data[0] & 1;
  const std::string path = npusim::fuzz::write_input_file(data + 1, size - 1, csv ? "layers.csv" : "workload.json");
  npusim::fuzz::expect_only_input_errors([&] {
    npusim::TraceEmitter emitter(npusim::read_workload(path), cfg);
    npusim::Instruction inst;
    for (int i = 0; i < 2000 && emitter.next(inst); ++i) {
    }
  });
  return 0;
}
