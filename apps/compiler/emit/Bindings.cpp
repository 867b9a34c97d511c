// The trace header's data bindings: the network input and weights (random or .npy) in,
// every layer's output out.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "apps/compiler/emit/EmitContext.h"
#include "apps/compiler/emit/Lowering.h"
#include "apps/compiler/emit/TraceOperands.h"
#include "sim/common/InputError.h"
#include "sim/tensor/Npy.h"

namespace npusim {
namespace {

// Weights as the workload gives them (.npy): the dense kernel.
std::vector<std::uint64_t> dense_weight_shape(const Layer& l) {
  if (l.kind == LayerKind::Depthwise) return {l.kh, l.kw, l.in.c};
  if (l.has_table()) return {l.vocab, l.out.c};
  if (l.has_constant()) return {l.in.h, l.in.w, l.in.c};
  return {l.out.c, l.kh, l.kw, l.in.c / l.groups};  // a grouped conv: each output's group of inputs
}

// A tensor kept in the cluster caches is bound chunk by chunk, each in its cluster's cache.
void place_binding(DataBinding& b, const DramTensor& t, std::uint32_t cores_per_cluster) {
  b.region = tensor(t.in_caches() ? AddressSpace::Cluster : AddressSpace::Dram, t.address(), {}, DType::Int8);
  if (t.in_caches()) b.core = *t.chunks.front().cache * cores_per_cluster;
  if (t.chunks.size() > 1 || t.in_caches())
    for (const auto& chunk : t.chunks) b.chunks.push_back({chunk.address, chunk.bytes, chunk.cache.value_or(0)});
}

// The data file `file` as named in the workload: beside the workload file.
std::string beside(const std::string& workload_file, const std::string& file) {
  const std::string dir = std::filesystem::path(workload_file).parent_path().string();
  return file.empty() || dir.empty() ? file : (std::filesystem::path(dir) / file).string();
}

}  // namespace

void EmitContext::add_bindings() {
  seed_ = w_.seed;
  if (!w_.independent_layers) {
    // The network input gets the zero fraction its first reader declares.
    double zeros = 0;
    for (const auto& l : w_.layers)
      if (std::find(l.inputs.begin(), l.inputs.end(), "input") != l.inputs.end()) {
        zeros = l.activation_sparsity;
        break;
      }
    bind_input("input", network_input_, nhwc(w_.batch, w_.input.h, w_.input.w, w_.input.c), w_.input_file, {1, 1},
               zeros);
  }
  for (const auto& c : layers_) bind_layer(c);
}

void EmitContext::bind_layer(const CompiledLayer& c) {
  const Layer& l = c.layer;
  const std::uint64_t n = w_.batch;
  if (w_.independent_layers)
    bind_input(l.name + ".input", c.inputs[0], nhwc(n, l.in.h, l.in.w, l.in.c), "", {1, 1}, l.activation_sparsity);
  if (l.has_weights() || l.has_constant()) {
    std::vector<std::uint64_t> copies;
    for (std::uint64_t address : c.weight_copies)
      if (address != kNoCopy && address != c.weights_offset) copies.push_back(address);
    const DramTensor at = c.spread_weights.chunks.empty() ? DramTensor{{{0, c.weight_bytes, c.weights_offset, std::nullopt}}}
                                                          : c.spread_weights;
    const std::size_t weights = bind_input(l.name + ".weights", at, dense_weight_shape(l), l.weights_file,
                                           {l.dilation, l.dilation}, l.weight_sparsity, copies, l.weight_values);
    bind_offline_weights(c, weights);
  }
  if (!c.kv_cache.chunks.empty())  // keys or values of earlier tokens: generated like weights
    bind_input(l.name + ".kv_cache", c.kv_cache, nhwc(n, l.matmul().cached_rows, 1, l.in_b.c), "", {1, 1}, 0);
  // Reused DRAM holds at the end only the tensors nothing read: the network's outputs.
  if (dram_.reusing() && c.output_readers > 0) return;
  if (!lowering(c.tiling.engine).dense_output(*this, std::size_t(&c - layers_.data()))) return;
  DataBinding out;
  out.name = l.name;
  place_binding(out, c.output, hw_.chip.cores_per_cluster);
  out.set_shape(nhwc(n, l.out.h, l.out.w, l.out.c));
  header_.outputs.push_back(out);
}

// The same weights stored once more in the form the layer's engine reads, prepared outside
// the accelerator (Lowering::offline_weights): the trace loader compresses them.
void EmitContext::bind_offline_weights(const CompiledLayer& c, std::size_t weights) {
  const auto packed = lowering(c.tiling.engine).offline_weights(*this, std::size_t(&c - layers_.data()));
  if (!packed) return;
  DataBinding copy = header_.inputs[weights];
  copy.name = c.layer.name + ".weights.compressed";
  copy.chunks.clear();
  copy.region.offset = packed->first;
  copy.compressed_indices = packed->second;
  header_.inputs.push_back(copy);
}

// An input binding fed by a .npy file (checked here) or by generated data; `dilation`
// spreads a kernel's taps in memory (the data stays dense). `copies` are further places
// the same data goes to (weights in every cluster's memory); only the first is dumped.
std::size_t EmitContext::bind_input(const std::string& name, const DramTensor& at, std::vector<std::uint64_t> shape,
                             const std::string& file, KernelDilation dilation, double zeros,
                             const std::vector<std::uint64_t>& copies,
                             const std::shared_ptr<const std::vector<std::int8_t>>& values) {
  DataBinding b;
  b.name = name;
  place_binding(b, at, hw_.chip.cores_per_cluster);
  b.dilation = dilation;
  b.set_shape(shape);
  if (values) {
    b.values = values;  // the workload's own data: no seed is drawn for it
  } else if (file.empty()) {
    b.random_seed = seed_++;
    if (zeros > 0) b.zero_fraction = zeros;
  } else {
    b.file = file;
    b.file_path = beside(w_.file, file);
    NpyHeader h = read_npy_header(b.file_path);
    if (h.dtype != DType::Int8 || h.shape != shape)
      throw InputError(w_.file, name, fmt::format("{} must be int8 with shape [{}]", file, fmt::join(shape, ", ")));
  }
  const std::size_t index = header_.inputs.size();
  header_.inputs.push_back(b);
  header_.outputs.push_back(b);  // dumped too, so results can be checked without npusim
  header_.outputs.back().file.clear();
  header_.outputs.back().random_seed.reset();
  header_.outputs.back().zero_fraction.reset();
  header_.outputs.back().values.reset();
  for (std::uint64_t address : copies) {
    DataBinding copy = b;
    copy.name = fmt::format("{}.mem{}", name, dram_.memory_of(address) + 1);
    copy.region.offset = address;
    header_.inputs.push_back(copy);
  }
  return index;
}

}  // namespace npusim
