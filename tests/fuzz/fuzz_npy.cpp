// .npy reader: magic, version, header length, header dict, data size.
#include "FuzzInput.h"
#include "sim/tensor/Npy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = npusim::fuzz::write_input_file(data, size, "tensor.npy");
  npusim::fuzz::expect_only_input_errors([&] { npusim::read_npy(path); });
  return 0;
}
