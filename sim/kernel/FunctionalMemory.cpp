#include "sim/kernel/FunctionalMemory.h"

#include <cstring>
#include <filesystem>

#include "models/chip/Chip.h"
#include "sim/tensor/Npy.h"
#include "sim/tensor/RandomTensor.h"

namespace npusim {

std::vector<std::uint8_t> read_region(Chip& chip, const DataBinding& binding) {
  const TensorOperand& r = binding.region;
  std::vector<std::uint8_t> bytes(r.bytes());
  if (r.space == AddressSpace::Dram)
    chip.dram().storage().read(r.offset, bytes.data(), bytes.size());
  else
    std::memcpy(bytes.data(), chip.core(binding.core).scratchpad(r.space).data(r.offset), bytes.size());
  return bytes;
}

void write_region(Chip& chip, const DataBinding& binding, const std::vector<std::uint8_t>& bytes) {
  const TensorOperand& r = binding.region;
  if (r.space == AddressSpace::Dram)
    chip.dram().storage().write(r.offset, bytes.data(), bytes.size());
  else
    std::memcpy(chip.core(binding.core).scratchpad(r.space).data(r.offset), bytes.data(), bytes.size());
}

void preload_inputs(Chip& chip, const TraceHeader& header) {
  for (const DataBinding& input : header.inputs) {
    if (input.random_seed)
      write_region(chip, input, random_tensor_bytes(input.region.dtype, input.region.elements(), *input.random_seed));
    else
      write_region(chip, input, read_npy(input.file_path).data);
  }
}

void dump_outputs(Chip& chip, const TraceHeader& header, const std::string& directory) {
  if (header.outputs.empty()) return;
  std::filesystem::create_directories(directory);
  for (const DataBinding& output : header.outputs) {
    NpyArray array;
    array.dtype = output.region.dtype;
    array.shape = output.region.shape;
    array.data = read_region(chip, output);
    write_npy(directory + "/" + output.name + ".npy", array);
  }
}

}  // namespace npusim
