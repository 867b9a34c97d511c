#pragma once
#include <cstdint>
#include <vector>

#include "apps/compiler/emit/CompiledLayer.h"
#include "apps/compiler/emit/TraceOperands.h"
#include "models/compression_block/CompressedRows.h"

namespace npusim {

// Which sparse layers hand their output to the next ones compressed (compression blocks
// 1375/1475/1595): a layer on the cluster whose every reader is a sparse layer taking the
// whole map as its only input stores it in the recursive format, and those readers load
// it as it is, with no dense round trip and no compress. Other outputs stay dense.
struct SparseChaining {
  std::vector<bool> compressed_output;       // per layer
  std::vector<std::int64_t> compressed_input;  // per layer: the producer it reads compressed, or -1
  std::vector<double> reader_zeros;          // per compressed layer: its readers' activation zeros
  SparseChaining(const std::vector<CompiledLayer>& layers, bool independent_layers);
};

// seed001 ¶84: per layer, whether its compressed output stays in the cluster's FM memory
// units and travels over compute interconnect 920 to the next layer's units instead of DRAM.
// It does when that reader is the very next layer, alone on the same single core (so the
// cluster runs nothing in between), the cluster has 920, and every image's output fits one
// buffer set per unit at worst (dense values and full index streams).
std::vector<bool> hand_offs(const std::vector<CompiledLayer>& layers, const SparseChaining& chaining,
                            const HardwareConfig& hw, std::uint32_t batch);

// `reader` takes `producer`'s whole output map as its only input (shapes alike).
bool whole_map_reader(const Layer& producer, const Layer& reader);

// A band of a map in the recursive format in DRAM: values [rows, w, c] int8 at `values`,
// the index buffer [rows, pitch] uint8 at `index`.
struct RecursiveRegion {
  std::uint64_t values = 0, index = 0;
  std::uint64_t rows = 0, w = 0, c = 0, pitch = 0;
  RecursiveRegion(std::uint64_t values_at, std::uint64_t index_at, std::uint64_t band_rows, std::uint64_t width,
                  std::uint64_t channels);
  // One DRAM block for both buffers of a band this large.
  static std::uint64_t bytes(std::uint64_t rows, std::uint64_t w, std::uint64_t c);
  static RecursiveRegion in_block(std::uint64_t at, std::uint64_t rows, std::uint64_t w, std::uint64_t c);
  std::vector<TensorOperand> operands() const;
};

}  // namespace npusim
