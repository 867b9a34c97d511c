#include "models/matrix_unit/WfoldDatapath.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace npusim {

namespace {

// One H row of a [.., W, ci] tensor as it looks after the stride-sw transform (§6.2):
// position f holds original positions f*sw .. f*sw+sw-1 side by side (sw*ci channels),
// `offset` zero positions precede the data (left padding) and everything past the data is
// zero (right padding, W-end alignment, Pci alignment). The transform's NRAM image is not
// materialised: reading through this view gives the bytes it would hold.
template <typename T>
class WFoldedRow {
 public:
  WFoldedRow(std::uint32_t width, std::uint32_t offset, std::uint32_t sw, std::uint32_t ci)
      : width_(width), offset_(offset), sw_(sw), ci_(ci) {}

  // Copies folded channels [c0, c0+count) of folded position f; row == nullptr is a padding row.
  void copy(const T* row, std::uint32_t f, std::uint32_t c0, std::uint32_t count, T* dst) const {
    std::uint32_t end = c0 + count;
    std::uint32_t c = c0;
    while (c < end) {
      std::uint32_t q = c / ci_;  // which of the sw original positions
      std::uint32_t run = std::min(end, (q + 1) * ci_) - c;
      std::int64_t w = std::int64_t(f) * sw_ + q - offset_;
      bool real = row != nullptr && q < sw_ && w >= 0 && w < std::int64_t(width_);
      if (real)
        std::memcpy(dst, row + std::size_t(w) * ci_ + (c - q * ci_), run * sizeof(T));
      else
        std::fill(dst, dst + run, T(0));
      dst += run;
      c += run;
    }
  }

 private:
  std::uint32_t width_, offset_, sw_, ci_;
};

// A CU's compute cycle: element-wise product of a data row and an extended weight row,
// reduced per Pci group into Ws partial sums (¶138).
template <typename T, typename Acc>
inline void cu_multiply_accumulate(const T* data, const T* weight, std::uint32_t ws,
                                   std::uint32_t pci, Acc* sums) {
  for (std::uint32_t t = 0; t < ws; ++t) {
    const T* d = data + std::size_t(t) * pci;
    const T* k = weight + std::size_t(t) * pci;
    Acc partial = 0;
    for (std::uint32_t i = 0; i < pci; ++i) partial += Acc(d[i]) * Acc(k[i]);
    sums[t] += partial;
  }
}

// The master circuit's data preparation: Pci alignment and W folding of input rows on the
// way to the first buffer (¶100), and extended weight rows on the way to a second buffer (¶138).
template <typename T>
class MasterCircuit {
 public:
  MasterCircuit(const WfoldPlan& p, const ConvShape& s)
      : plan_(p),
        input_(s.wi, s.pad_left, s.sw, s.ci),
        kernel_(s.kw, 0, s.sw, s.ci) {}

  // `rows` data rows of Pci block `bci`, starting at folded input position `first_position`.
  void form_data_rows(const T* input_row, std::uint32_t first_position, std::uint32_t bci,
                      std::uint32_t rows, T* first_buffer) const {
    const std::uint32_t pci = plan_.pci_elems;
    for (std::uint32_t pos = 0; pos < rows * plan_.ws; ++pos)
      input_.copy(input_row, first_position + pos, bci * pci, pci, first_buffer + std::size_t(pos) * pci);
  }

  // The Pci slice (kernel_row, folded column kwf, block bci) replicated Ws times.
  void form_extended_weight_row(const T* kernel_row, std::uint32_t kwf, std::uint32_t bci,
                                T* row) const {
    const std::uint32_t pci = plan_.pci_elems;
    kernel_.copy(kernel_row, kwf, bci * pci, pci, row);
    for (std::uint32_t t = 1; t < plan_.ws; ++t) std::memcpy(row + std::size_t(t) * pci, row, pci * sizeof(T));
  }

 private:
  const WfoldPlan& plan_;
  WFoldedRow<T> input_;
  WFoldedRow<T> kernel_;
};

// One slave circuit: its second buffer (extended weight rows) and third buffer (results,
// wo first then co). Its first buffer receives the same broadcast rows as every other
// slave's, so the slaves share one copy of it here.
template <typename T, typename Acc>
class SlaveCircuit {
 public:
  explicit SlaveCircuit(const WfoldPlan& p)
      : plan_(p),
        second_buffer_(std::size_t(p.l2) * p.lanes),
        third_buffer_(std::size_t(p.nco) * p.wo_per_tile) {}

  T* second_buffer_row(std::uint32_t row) { return &second_buffer_[std::size_t(row) * plan_.lanes]; }

  void clear_results() { std::fill(third_buffer_.begin(), third_buffer_.end(), Acc(0)); }

  // One compute cycle: every CU takes its data row (slid by kw_offset positions) and the
  // broadcast extended weight row, and accumulates Ws results of co slot `slot`.
  void compute_cycle(const T* first_buffer, std::uint32_t kw_offset, std::uint32_t weight_row,
                     std::uint32_t slot) {
    const T* weights = second_buffer_row(weight_row);
    for (std::uint32_t u = 0; u < plan_.ncu; ++u) {
      std::uint32_t wo = plan_.cu_first_wo(u);
      const T* data = first_buffer + std::size_t(wo + kw_offset) * plan_.pci_elems;
      cu_multiply_accumulate(data, weights, plan_.ws, plan_.pci_elems,
                             &third_buffer_[plan_.third_buffer_index(slot, wo)]);
    }
  }

  Acc result(std::uint32_t slot, std::uint32_t wo_in_tile) const {
    return third_buffer_[plan_.third_buffer_index(slot, wo_in_tile)];
  }

 private:
  const WfoldPlan& plan_;
  std::vector<T> second_buffer_;
  std::vector<Acc> third_buffer_;
};

template <typename T, typename Acc>
class WfoldConvolution {
 public:
  WfoldConvolution(const WfoldPlan& p, const ConvShape& s, const T* ifmap, const T* weights)
      : plan_(p),
        layer_(s),
        ifmap_(ifmap),
        weights_(weights),
        master_(p, s),
        slaves_(p.ns, SlaveCircuit<T, Acc>(p)),
        first_buffer_(std::size_t(p.l1) * p.lanes) {}

  // Extra loops wo (innermost) -> ho -> co round (¶146); images outermost.
  void run(Acc* out) {
    for (std::uint32_t image = 0; image < layer_.n; ++image)
      for (const CoBlock& block : plan_.co_blocks)
        for (std::uint32_t ho = 0; ho < plan_.ho; ++ho)
          for (std::uint32_t tile = 0; tile < plan_.wo_tiles; ++tile) {
            std::uint32_t first_wo = tile * plan_.wo_per_tile;
            run_tile(image, block, ho, first_wo);
            read_out(image, block, ho, first_wo, out);
          }
  }

 private:
  const T* input_row(std::uint32_t image, std::uint32_t padded_h) const {
    std::int64_t h = std::int64_t(padded_h) - layer_.pad_top;
    if (h < 0 || h >= std::int64_t(layer_.hi)) return nullptr;
    return ifmap_ + (std::size_t(image) * layer_.hi + std::size_t(h)) * layer_.wi * layer_.ci;
  }

  const T* kernel_row(std::uint32_t co, std::uint32_t kh) const {
    return weights_ + (std::size_t(co) * layer_.kh + kh) * layer_.kw * layer_.ci;
  }

  // Per tile: kw pieces, then kh and bci (outer, bci updated after the kw loop, ¶193 (i)),
  // kw (middle), co (inner); all slaves run each compute cycle in parallel.
  void run_tile(std::uint32_t image, const CoBlock& block, std::uint32_t ho, std::uint32_t first_wo) {
    for (auto& slave : slaves_) slave.clear_results();
    std::uint64_t weight_rows_loaded = 0;
    for (const KwPiece& piece : plan_.kw_pieces) {
      for (std::uint32_t kh = 0; kh < plan_.nkh; ++kh) {
        const T* row = input_row(image, ho * layer_.sh + kh);
        for (std::uint32_t bci = 0; bci < plan_.bci; ++bci) {
          master_.form_data_rows(row, first_wo + piece.first, bci, piece.data_rows, first_buffer_.data());
          for (std::uint32_t kw = 0; kw < piece.length; ++kw)
            for (std::uint32_t slot = 0; slot < block.nco; ++slot) {
              std::uint32_t sb_row = plan_.second_buffer_row(weight_rows_loaded++);
              for (std::uint32_t s = 0; s < plan_.ns; ++s)
                compute_on_slave(s, block, slot, kh, piece.first + kw, bci, kw, sb_row);
            }
        }
      }
    }
  }

  void compute_on_slave(std::uint32_t s, const CoBlock& block, std::uint32_t slot, std::uint32_t kh,
                        std::uint32_t kwf, std::uint32_t bci, std::uint32_t kw_offset,
                        std::uint32_t sb_row) {
    SlaveCircuit<T, Acc>& slave = slaves_[s];
    T* weights = slave.second_buffer_row(sb_row);
    std::uint32_t co_local = plan_.co_in_round(s, slot);
    if (co_local < block.count)
      master_.form_extended_weight_row(kernel_row(block.first_co + co_local, kh), kwf, bci, weights);
    else
      std::fill(weights, weights + plan_.lanes, T(0));  // Aco padding channel
    slave.compute_cycle(first_buffer_.data(), kw_offset, sb_row, slot);
  }

  // cw -> wc readout (¶181-¶182): for each wo, co rotates over the slaves; extra wo (tile
  // alignment, folded stride outputs) and extra co (Aco) are filtered on the way out.
  void read_out(std::uint32_t image, const CoBlock& block, std::uint32_t ho, std::uint32_t first_wo,
                Acc* out) const {
    std::uint32_t wo_end = std::min(plan_.wo, first_wo + plan_.wo_per_tile);
    for (std::uint32_t wo = first_wo; wo < wo_end; ++wo) {
      Acc* dst = out + ((std::size_t(image) * plan_.ho + ho) * plan_.wo + wo) * layer_.co + block.first_co;
      for (std::uint32_t c = 0; c < block.count; ++c) {
        WfoldPlan::SlaveSlot where = plan_.slave_of(c);
        dst[c] = slaves_[where.slave].result(where.slot, wo - first_wo);
      }
    }
  }

  const WfoldPlan& plan_;
  const ConvShape& layer_;
  const T* ifmap_;
  const T* weights_;
  MasterCircuit<T> master_;
  std::vector<SlaveCircuit<T, Acc>> slaves_;
  std::vector<T> first_buffer_;
};

template <typename T, typename Acc>
void run_checked(const WfoldPlan& plan, const ConvShape& layer, const T* ifmap, const T* weights,
                 Acc* out) {
  // A plan made for another element size or layer would index the buffers wrongly.
  if (plan.element_bytes != sizeof(T) || plan.layer.to_string() != layer.to_string())
    throw std::invalid_argument("run_wfold_conv: the plan was made for " + plan.layer.to_string() +
                                ", not for " + layer.to_string() + " with " +
                                std::to_string(sizeof(T)) + "-byte elements");
  WfoldConvolution<T, Acc>(plan, layer, ifmap, weights).run(out);
}

}  // namespace

void run_wfold_conv(const WfoldPlan& plan, const ConvShape& layer, const std::int8_t* ifmap,
                    const std::int8_t* weights, std::int32_t* out) {
  run_checked(plan, layer, ifmap, weights, out);
}

void run_wfold_conv(const WfoldPlan& plan, const ConvShape& layer, const float* ifmap,
                    const float* weights, float* out) {
  run_checked(plan, layer, ifmap, weights, out);
}

}  // namespace npusim
