// Vectorised transcendental functions over contiguous arrays (xsimd). libm's scalar tanh and exp
// dominate the LSTM's element-wise work otherwise; xsimd's versions are accurate to a few ulp, so the
// double-precision gradient checks are unaffected.
#pragma once

#include <cmath>
#include <cstddef>

#include <xsimd/xsimd.hpp>

namespace glimpse {

// y[i] = tanh(x[i]); y may alias x.
template <class T>
void VTanh(const T* x, std::size_t n, T* y) {
  using B = xsimd::batch<T>;
  std::size_t i = 0;
  for (; i + B::size <= n; i += B::size) xsimd::tanh(B::load_unaligned(x + i)).store_unaligned(y + i);
  for (; i < n; ++i) y[i] = std::tanh(x[i]);
}

// y[i] = 1 / (1 + exp(-x[i])); y may alias x.
template <class T>
void VSigmoid(const T* x, std::size_t n, T* y) {
  using B = xsimd::batch<T>;
  const B one(T(1));
  std::size_t i = 0;
  for (; i + B::size <= n; i += B::size)
    (one / (one + xsimd::exp(-B::load_unaligned(x + i)))).store_unaligned(y + i);
  for (; i < n; ++i) y[i] = T(1) / (T(1) + std::exp(-x[i]));
}

}  // namespace glimpse
