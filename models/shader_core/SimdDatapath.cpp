#include "models/shader_core/SimdDatapath.h"

#include <cstring>
#include <vector>

#include "models/vector_unit/VectorKernels.h"

namespace npusim {

namespace {

// Register offsets (in elements) of one position's K entries: straight rows of the
// unrolled matrix, or the address generator's walk over the compact rows (-1 = zero).
void entry_addresses(const MatmulOperands& m, std::uint64_t j, std::uint64_t K, std::vector<std::int64_t>& at) {
  const ConvShape& g = m.image->layer;
  for (std::uint64_t k = 0; k < K; ++k)
    at[k] = m.image->compact ? AddressGenerator::patch_element(g, m.image->rows, m.positions.first + j, k)
                             : std::int64_t(j * K + k);
}

template <class In, class Acc>
void multiply_tile(const MatmulOperands& m, Acc* out) {
  const ConvShape& g = m.image->layer;
  const std::uint64_t K = std::uint64_t(g.kh) * g.kw * g.ci;
  const In* x = reinterpret_cast<const In*>(m.ifm);
  const In* w = reinterpret_cast<const In*>(m.weights);
  std::vector<std::int64_t> at(K);
  for (std::uint64_t j = 0; j < m.positions.count; ++j) {
    entry_addresses(m, j, K, at);
    for (std::uint64_t f = 0; f < m.filters; ++f) {
      const In* row = w + f * K;
      Acc sum = 0;
      for (std::uint64_t k = 0; k < K; ++k)
        if (at[k] >= 0) sum += Acc(x[at[k]]) * Acc(row[k]);  // padding is skipped, as zeros add nothing
      out[j * m.filters + f] = sum;
    }
  }
}

}  // namespace

void SimdDatapath::multiply(const MatmulOperands& m, bool float32, int shift, bool relu,
                            const std::vector<std::int32_t>& bias) const {
  const std::uint64_t outputs = m.positions.count * m.filters;
  if (float32) {
    multiply_tile<float, float>(m, reinterpret_cast<float*>(m.results));
    return;
  }
  if (shift < 0) {
    multiply_tile<std::int8_t, std::int32_t>(m, reinterpret_cast<std::int32_t*>(m.results));
    return;
  }
  std::vector<std::int32_t> acc(outputs);
  multiply_tile<std::int8_t, std::int32_t>(m, acc.data());
  vector_requant(reinterpret_cast<const std::uint8_t*>(acc.data()), m.results, outputs, std::uint32_t(shift), relu,
                 bias.empty() ? nullptr : bias.data(), bias.empty() ? 1 : bias.size());
}

}  // namespace npusim
