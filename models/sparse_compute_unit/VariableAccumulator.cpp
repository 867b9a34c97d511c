#include "models/sparse_compute_unit/VariableAccumulator.h"

#include <stdexcept>

namespace npusim {

VariableAccumulator::VariableAccumulator(std::uint32_t ports, std::uint32_t var_h, std::uint32_t var_w)
    : min_(ports), var_h_(var_h), var_w_(var_w), var_(ports, 0), request_(ports, -1), lanes_(ports, 0) {
  if (std::uint64_t(var_h) * var_w > ports)
    throw std::invalid_argument("the VAR window has more locations than the MIN has ports");
}

void VariableAccumulator::load(const std::vector<std::int64_t>& buffer, std::uint32_t buffer_w,
                               std::uint32_t buffer_h, std::uint32_t row, std::uint32_t col) {
  row_ = row;
  col_ = col;
  std::fill(var_.begin(), var_.end(), 0);
  for (std::uint32_t r = 0; r < var_h_ && row + r < buffer_h; ++r)
    for (std::uint32_t c = 0; c < var_w_ && col + c < buffer_w; ++c)
      var_[r * var_w_ + c] = buffer[std::size_t(row + r) * buffer_w + col + c];
}

void VariableAccumulator::write_back(std::vector<std::int64_t>& buffer, std::uint32_t buffer_w,
                                     std::uint32_t buffer_h) const {
  for (std::uint32_t r = 0; r < var_h_ && row_ + r < buffer_h; ++r)
    for (std::uint32_t c = 0; c < var_w_ && col_ + c < buffer_w; ++c)
      buffer[std::size_t(row_ + r) * buffer_w + col_ + c] = var_[r * var_w_ + c];
}

// The arbiter hands on at most one product per index, so each MIN request is a partial
// permutation: one pass. More would mean the arbiter let a collision through.
const BenesRouting& VariableAccumulator::one_pass(const std::vector<BenesRouting>& passes) const {
  if (passes.size() != 1) throw std::logic_error("a VAR access needed more than one MIN pass");
  return passes.front();
}

void VariableAccumulator::accumulate(const RoundView& round) {
  const std::vector<Product>& p = round.passed;
  if (p.empty()) return;
  if (p.size() > request_.size()) throw std::logic_error("more products than MIN ports");
  // Read MIN 1355: VAR location -> accumulator lane.
  std::fill(request_.begin(), request_.end(), -1);
  for (std::size_t lane = 0; lane < p.size(); ++lane) request_[p[lane].var_index] = std::int64_t(lane);
  lanes_ = min_.apply(one_pass(min_.route_requests(request_, read_stats_)), var_);
  // Accumulator 1325: a_i = a_i + z_i.
  for (std::size_t lane = 0; lane < p.size(); ++lane) lanes_[lane] += p[lane].value;
  // Write MIN 1335: lane -> VAR location.
  std::fill(request_.begin(), request_.end(), -1);
  for (std::size_t lane = 0; lane < p.size(); ++lane) request_[lane] = p[lane].var_index;
  const std::vector<std::int64_t> out = min_.apply(one_pass(min_.route_requests(request_, write_stats_)), lanes_);
  for (const Product& q : p) var_[q.var_index] = out[q.var_index];
}

}  // namespace npusim
