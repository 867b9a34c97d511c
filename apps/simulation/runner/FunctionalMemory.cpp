#include "apps/simulation/runner/FunctionalMemory.h"

#include <cstring>
#include <filesystem>
#include <new>

#include "models/chip/Chip.h"
#include "models/compression_block/FlatCompressed.h"
#include "sim/tensor/Npy.h"
#include "sim/tensor/RandomTensor.h"
#include "sim/tensor/SparseMask.h"
#include "sim/common/InputError.h"
#include "sim/common/Interruption.h"

namespace npusim {

namespace {
// The pieces of a binding: its chunks, or one region.
std::vector<DataBinding::Chunk> dram_chunks(const DataBinding& b) {
  return b.chunks.empty() ? std::vector<DataBinding::Chunk>{{b.region.offset, b.region.bytes(), 0}} : b.chunks;
}
}  // namespace

// Where chunk `c` of a binding outside DRAM lies: its cluster's cache, or the binding's core's memory.
std::uint8_t* chunk_bytes(Chip& chip, const DataBinding& binding, const DataBinding::Chunk& c) {
  const bool cache_chunk = binding.region.space == AddressSpace::Cluster && !binding.chunks.empty();
  return chip.scratch_bytes(binding.region.space, cache_chunk ? c.cluster * chip.cores_per_cluster() : binding.core,
                            c.offset);
}

std::vector<std::uint8_t> read_region(Chip& chip, const DataBinding& binding) {
  const TensorOperand& r = binding.region;
  std::vector<std::uint8_t> bytes(r.bytes());
  std::uint64_t at = 0;
  for (const auto& c : dram_chunks(binding)) {
    if (r.space == AddressSpace::Dram)
      chip.dram().storage().read(c.offset, bytes.data() + at, c.bytes);
    else
      std::memcpy(bytes.data() + at, chunk_bytes(chip, binding, c), c.bytes);
    at += c.bytes;
  }
  return bytes;
}

void write_region(Chip& chip, const DataBinding& binding, const std::vector<std::uint8_t>& bytes) {
  const TensorOperand& r = binding.region;
  std::uint64_t at = 0;
  for (const auto& c : dram_chunks(binding)) {
    if (r.space == AddressSpace::Dram)
      chip.dram().storage().write(c.offset, bytes.data() + at, c.bytes);
    else
      std::memcpy(chunk_bytes(chip, binding, c), bytes.data() + at, c.bytes);
    at += c.bytes;
  }
}

namespace {

// An input stored compressed (weights compressed offline, seed001 ¶203-205): the flat
// format the cluster's compress op writes, every slot of the lists written.
void write_compressed(Chip& chip, const DataBinding& input, const std::vector<std::uint8_t>& dense) {
  const std::uint64_t capacity = dense.size();
  FlatCompressed flat = compress_flat(dense.data(), dense.size(), capacity);
  flat.values.resize(capacity, 0);
  flat.indices.resize(capacity, 0);
  chip.dram().storage().write(input.region.offset, reinterpret_cast<const std::uint8_t*>(flat.values.data()), capacity);
  chip.dram().storage().write(*input.compressed_indices, reinterpret_cast<const std::uint8_t*>(flat.indices.data()),
                              4 * capacity);
}

void preload_input(Chip& chip, const DataBinding& input) {
    const TensorOperand& r = input.region;
    std::vector<std::uint8_t> data;
    if (input.random_seed) {
      std::uint64_t elements = 1;
      for (auto d : input.data_shape) elements *= d;
      data = random_tensor_bytes(r.dtype, elements, *input.random_seed);
      if (input.zero_fraction) apply_sparse_mask(data, *input.zero_fraction, *input.random_seed);
    } else if (input.values) {
      data.assign(input.values->begin(), input.values->end());
    } else {
      data = read_npy(input.file_path).data;
    }
    if (input.dilated()) data = spread_kernel_taps(data, input.data_shape, dtype_size(r.dtype), input.dilation);
    if (input.compressed_indices) return write_compressed(chip, input, data);
    write_region(chip, input, data);
}

}  // namespace

void preload_inputs(Chip& chip, const TraceHeader& header, const std::string& trace_path) {
  for (const DataBinding& input : header.inputs) {
    try {
      preload_input(chip, input);
    } catch (const std::bad_alloc&) {
      // Functional mode holds the tensor twice for a moment: its values and DRAM's copy.
      fail_allocating(trace_path, "input tensor \"" + input.name + "\"", 2 * input.region.bytes());
    }
  }
}

void dump_outputs(Chip& chip, const TraceHeader& header, const std::string& directory) {
  if (header.outputs.empty()) return;
  {
    CreationGuard guard;
    std::filesystem::create_directories(directory);
  }
  for (const DataBinding& output : header.outputs) {
    NpyArray array;
    array.dtype = output.region.dtype;
    array.shape = output.data_shape;
    array.data = read_region(chip, output);
    if (output.dilated())
      array.data = gather_kernel_taps(array.data, output.data_shape, dtype_size(array.dtype), output.dilation);
    write_npy(directory + "/" + output.name + ".npy", array);
  }
}

}  // namespace npusim
