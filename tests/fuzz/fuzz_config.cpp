// Config reader and validator: merge over "extends", schema checks, cross checks.
#include "FuzzInput.h"
#include "sim/config/ConfigLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = npusim::fuzz::write_input_file(data, size, "config.json");
  npusim::fuzz::expect_only_input_errors([&] {
    const npusim::HardwareConfig cfg = npusim::load_hardware_config(path);
    (void)npusim::resolved_config_json(cfg).dump();
  });
  return 0;
}
