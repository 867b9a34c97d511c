#include "apps/compiler/lower_sparse/SparseChaining.h"

#include <map>
#include <string>

#include "apps/compiler/lower_sparse/SparseLowering.h"
#include "apps/compiler/tiling/LayerTiler.h"
#include "models/sparse_cluster/SparseClusterConfig.h"

namespace npusim {

namespace {

// `reader` can load `producer`'s output compressed: it runs on the cluster and reads that
// whole map as its only input.
// A pool the cluster takes is pooled in its conv's back end: it reads no stored map.
bool reads_whole_map(const CompiledLayer& reader, const CompiledLayer& producer) {
  return reader.tiling.engine == SparseLowering::kName && reader.layer.kind != LayerKind::Pool &&
         whole_map_reader(producer.layer, reader.layer);
}

}  // namespace

bool whole_map_reader(const Layer& producer, const Layer& reader) {
  return reader.inputs.size() == 1 && reader.in.h == producer.out.h && reader.in.w == producer.out.w &&
         reader.in.c == producer.out.c;
}

// Its only reader on the cluster too, taking the whole map: then every reader is, and the
// output goes on compressed, unless the workload's layers are independent (a CSV).
bool SparseLowering::chains_to(const Layer& producer, std::uint32_t producer_readers, const Layer& reader,
                               const Workload& w) const {
  return !w.independent_layers && producer_readers == 1 && whole_map_reader(producer, reader);
}

SparseChaining::SparseChaining(const std::vector<CompiledLayer>& layers, bool independent_layers)
    : compressed_output(layers.size(), false), compressed_input(layers.size(), -1), reader_zeros(layers.size(), 0) {
  if (independent_layers) return;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < layers.size(); ++i) index[layers[i].layer.name] = i;
  // Per producer: its readers, and whether every one of them can take it compressed.
  std::vector<std::uint32_t> readers(layers.size(), 0);
  std::vector<bool> all_sparse(layers.size(), true);
  for (std::size_t j = 0; j < layers.size(); ++j)
    for (const std::string& name : layers[j].layer.inputs) {
      const auto it = index.find(name);
      if (it == index.end()) continue;
      ++readers[it->second];
      all_sparse[it->second] = all_sparse[it->second] && reads_whole_map(layers[j], layers[it->second]);
      reader_zeros[it->second] = layers[j].layer.activation_sparsity;
    }
  for (std::size_t i = 0; i < layers.size(); ++i)
    compressed_output[i] = layers[i].tiling.engine == SparseLowering::kName && readers[i] > 0 && all_sparse[i] &&
                           readers[i] == layers[i].output_readers;
  for (std::size_t j = 0; j < layers.size(); ++j)
    if (layers[j].layer.inputs.size() == 1) {
      const auto it = index.find(layers[j].layer.inputs[0]);
      if (it != index.end() && compressed_output[it->second]) compressed_input[j] = std::int64_t(it->second);
    }
}

std::vector<bool> hand_offs(const std::vector<CompiledLayer>& layers, const SparseChaining& chaining,
                            const HardwareConfig& hw, std::uint32_t batch) {
  std::vector<bool> hand_off(layers.size(), false);
  for (std::size_t i = 0; i + 1 < layers.size(); ++i) {
    const CompiledLayer& c = layers[i];
    if (!chaining.compressed_output[i] || chaining.compressed_input[i + 1] != std::int64_t(i) ||
        c.output_readers != 1 || c.tiling.cores.size() != 1 || layers[i + 1].tiling.cores != c.tiling.cores)
      continue;
    const auto& cfg = c.tiling.kind(hw).block<SparseClusterConfig>(SparseClusterConfig::kSection);
    const std::uint64_t held = batch * RecursiveRegion::bytes(c.layer.out.h, c.layer.out.w, c.layer.out.c);
    hand_off[i] = cfg.hand_off && cfg.compute_interconnect != ComputeInterconnectKind::None &&
                  held <= std::uint64_t(cfg.units) * cfg.fm_buffer_bytes;
  }
  return hand_off;
}

RecursiveRegion::RecursiveRegion(std::uint64_t values_at, std::uint64_t index_at, std::uint64_t band_rows,
                                 std::uint64_t width, std::uint64_t channels)
    : values(values_at), index(index_at), rows(band_rows), w(width), c(channels) {
  pitch = CompressedRows{1, std::uint32_t(w), std::uint32_t(c)}.index_pitch();
}

std::uint64_t RecursiveRegion::bytes(std::uint64_t rows, std::uint64_t w, std::uint64_t c) {
  const std::uint64_t pitch = CompressedRows{1, std::uint32_t(w), std::uint32_t(c)}.index_pitch();
  return dram_aligned(rows * w * c) + dram_aligned(rows * pitch);
}

RecursiveRegion RecursiveRegion::in_block(std::uint64_t at, std::uint64_t rows, std::uint64_t w, std::uint64_t c) {
  return RecursiveRegion(at, at + dram_aligned(rows * w * c), rows, w, c);
}

std::vector<TensorOperand> RecursiveRegion::operands() const {
  return {tensor(AddressSpace::Dram, values, {rows, w, c}, DType::Int8),
          tensor(AddressSpace::Dram, index, {rows, pitch}, DType::UInt8)};
}

}  // namespace npusim
