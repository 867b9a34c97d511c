// The recursive compressed format on the sparse cluster (models/compression_block): the
// compress op into it, sparse_conv reading it, and the compression blocks 1375/1475/1595
// in the units' back end storing sparse_conv_compressed outputs in it.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "models/kernel/SimTime.h"
#include "models/sparse_cluster/SparseOps.h"
#include "models/sparse_cluster/SparseTensorCluster.h"

namespace npusim {

namespace {

CompressedRows rows_of(const TensorOperand& values) {
  return {std::uint32_t(values.shape.at(0)), std::uint32_t(values.shape.at(1)), std::uint32_t(values.shape.at(2))};
}

// Where the share of columns from x0 on starts in a row's bytes.
std::uint64_t share_start(std::uint64_t total, std::uint32_t x0, std::uint32_t w) { return total * x0 / w; }

}  // namespace

// compress into the recursive format: the same scan as the flat one; the row slots'
// used bytes leave through the compression path.
Engine::Work SparseTensorCluster::compress_rows_op(const Instruction& inst) {
  const TensorOperand& values = inst.outputs.at(0);
  const TensorOperand& indices = inst.outputs.at(1);
  const CompressedRows shape = rows_of(values);
  std::vector<std::uint8_t> bytes;
  const Cycles done = scan_dense(inst, bytes);
  CompressedRowsImage image;
  if (setup().functional) {
    image = compress_rows(shape, reinterpret_cast<const std::int8_t*>(bytes.data()));
  } else {
    const double zeros = inst.params.value("assumed_zeros", 0.0);
    image.sizes = compressed_row_sizes(shape, assumed_map(shape.h, shape.w, shape.c, zeros, 1).indices);
  }
  std::uint64_t value_bytes = 0, index_bytes = 0;
  for (std::uint32_t y = 0; y < shape.h; ++y) {
    value_bytes += image.sizes.value_bytes[y];
    index_bytes += image.sizes.index_bytes[y];
  }
  // Timing moves the used bytes as one run per buffer; the data lands in its row slots.
  const Cycles v = compress_path_->transfer(true, values.offset, value_bytes, nullptr, done);
  const Cycles i = compress_path_->transfer(true, indices.offset, index_bytes, nullptr, done);
  if (setup().functional) {
    compress_path_->poke(values.offset, image.values.size(), image.values.data());
    compress_path_->poke(indices.offset, image.index.size(), image.index.data());
  }
  *c_.compressed_elements += inst.inputs.at(0).elements();
  *c_.compressed_nonzeros += value_bytes;
  wait_until(std::max(v, i));
  return {inst.inputs.at(0).elements() + value_bytes + index_bytes, 0};
}

// Reads an ifm in the recursive format functionally (zero time; the FM memory units pay
// for the bytes); a row whose levels disagree is bad input naming the row and level.
CompressedMap SparseTensorCluster::read_recursive(const Instruction& inst, const ConvShape& g,
                                                  CompressedRowSizes& rows) {
  const CompressedRows shape{g.hi, g.wi, g.ci};
  const TensorOperand& v = inst.inputs.at(0);
  const TensorOperand& ix = inst.inputs.at(1);
  std::vector<std::uint8_t> values(v.bytes()), index(ix.bytes());
  compress_path_->peek(v.offset, values.size(), values.data());
  compress_path_->peek(ix.offset, index.size(), index.data());
  CompressedMap m{g.hi, g.wi, g.ci, {}, {}};
  if (auto bad = decompress_rows(shape, values.data(), index.data(), m.indices, m.values, rows))
    fail_instruction(inst, fmt::format("inputs[1] {}: {}", bad->place, bad->reason));
  return m;
}

// A finished sub-map whose back end needs its neighbours (compression of whole rows, or
// pooling windows across its borders): its requantized values (ReLU included) join the
// output map, and it waits.
void SparseTensorCluster::keep_for_compression(ConvSchedule& run, std::uint32_t submap, std::uint32_t memory,
                                               const std::vector<std::int64_t>& sums, Cycles computed,
                                               SparseUnitTally& tally) {
  const UnitRegion& r = run.plan.partition().regions[submap];
  run.finished.push_back({submap, memory, computed, &tally, r});
  if (!setup().functional) return;
  const std::uint32_t co = run.plan.shape().co, wo = run.plan.shape().wo();
  const std::vector<std::uint8_t> bytes = requantized(run, sums);
  const std::uint64_t row_bytes = std::uint64_t(r.ox1 - r.ox0) * co;
  for (std::uint32_t oy = r.oy0; oy < r.oy1; ++oy)
    std::memcpy(&run.ofm[(std::uint64_t(oy) * wo + r.ox0) * co], &bytes[(oy - r.oy0) * row_bytes], row_bytes);
}

// Compression blocks 1375/1475/1595: each output row is compressed (the units of its grid
// row combined first, ¶139); each unit stores its columns' share of every row's values
// and stream from when it finished, through its memory unit.
void SparseTensorCluster::store_compressed(ConvSchedule& run, double ofm_zeros, std::uint64_t seed) {
  const TensorOperand& values = run.inst.outputs.at(0);
  const TensorOperand& indices = run.inst.outputs.at(1);
  const CompressedRows shape = rows_of(values);
  const std::uint64_t pitch = shape.index_pitch(), row_elements = shape.row_elements();
  CompressedRowsImage image;
  if (setup().functional)
    image = compress_rows(shape, run.ofm.data());
  else
    image.sizes = compressed_row_sizes(shape, assumed_map(shape.h, shape.w, shape.c, ofm_zeros, seed + 2).indices);
  if (run.hand_off) hold_output(run, image.sizes);
  for (const ConvSchedule::Finished& f : run.finished) {
    const UnitRegion& r = f.region;
    if (run.hand_off) {  // it stays in the memory unit for the next layer's units
      run.done = std::max(run.done, f.computed);
      f.tally->done = std::max(f.tally->done, f.computed);
      continue;
    }
    FeatureMapMemoryUnit& fm = *fm_units_[f.memory];
    Cycles stored = f.computed;
    for (std::uint32_t y = r.oy0; y < r.oy1; ++y) {
      const std::uint64_t vb = image.sizes.value_bytes[y], ib = image.sizes.index_bytes[y];
      const std::uint64_t vn = column_share(vb, r.ox0, r.ox1, shape.w), in = column_share(ib, r.ox0, r.ox1, shape.w);
      const std::uint64_t v_at = values.offset + y * row_elements + share_start(vb, r.ox0, shape.w);
      const std::uint64_t i_at = indices.offset + y * pitch + share_start(ib, r.ox0, shape.w);
      stored = std::max({stored, fm.store(v_at, vn, nullptr, f.computed), fm.store(i_at, in, nullptr, f.computed)});
      run.out_bytes += vn + in;
    }
    run.done = std::max(run.done, stored);
    f.tally->done = std::max(f.tally->done, stored);
  }
  if (setup().functional) {
    compress_path_->poke(values.offset, image.values.size(), image.values.data());
    compress_path_->poke(indices.offset, image.index.size(), image.index.data());
  }
  *c_.output_compressed_bytes += image.sizes.total();
  *c_.output_dense_bytes += values.bytes();
}

}  // namespace npusim
