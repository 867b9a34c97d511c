#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/matrix_unit/ConvShape.h"

namespace npusim::reference {

// Direct convolution, formula (1) of seed000 with zero padding and strides, written
// without any of the Wfold machinery: for every output point, sum over the window.
//   x: [n hi wi ci] unpadded, k: [co kh kw ci], returns y: [n ho wo co].
// Only the plain size fields of the shape are used; ho/wo are computed here on purpose.
template <typename T, typename Acc>
std::vector<Acc> direct_conv(const ConvShape& s, const std::vector<T>& x, const std::vector<T>& k) {
  const long ho = (long(s.pad_top) + s.hi + s.pad_bottom - s.kh) / s.sh + 1;
  const long wo = (long(s.pad_left) + s.wi + s.pad_right - s.kw) / s.sw + 1;
  std::vector<Acc> y(std::size_t(s.n) * ho * wo * s.co);
  std::size_t out = 0;
  for (long in = 0; in < long(s.n); ++in)
    for (long jh = 0; jh < ho; ++jh)
      for (long jw = 0; jw < wo; ++jw)
        for (long jc = 0; jc < long(s.co); ++jc) {
          Acc sum = 0;
          for (long ih = 0; ih < long(s.kh); ++ih) {
            long h = jh * s.sh + ih - long(s.pad_top);
            if (h < 0 || h >= long(s.hi)) continue;
            for (long iw = 0; iw < long(s.kw); ++iw) {
              long w = jw * s.sw + iw - long(s.pad_left);
              if (w < 0 || w >= long(s.wi)) continue;
              const T* xp = &x[((std::size_t(in) * s.hi + h) * s.wi + w) * s.ci];
              const T* kp = &k[((std::size_t(jc) * s.kh + ih) * s.kw + iw) * s.ci];
              for (long ic = 0; ic < long(s.ci); ++ic) sum += Acc(xp[ic]) * Acc(kp[ic]);
            }
          }
          y[out++] = sum;
        }
  return y;
}

}  // namespace npusim::reference
