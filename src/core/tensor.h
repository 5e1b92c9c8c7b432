// The one header that includes xtensor: tensor aliases used across glimpse.
// Layout is always row-major and contiguous, so raw loops over .data() and BLAS calls are valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <xtensor/xadapt.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

namespace glimpse {

template <class T>
using Vec = xt::xtensor<T, 1>;  // (N)
template <class T>
using Mat = xt::xtensor<T, 2>;  // (rows, cols), e.g. (B, features)
template <class T>
using Ten3 = xt::xtensor<T, 3>;  // e.g. (B, H, W)
template <class T>
using Ten4 = xt::xtensor<T, 4>;

using Index = std::ptrdiff_t;

// Resizes only when the shape differs, so steady-state calls never allocate.
template <class T, std::size_t N>
inline void EnsureShape(xt::xtensor<T, N>& t, const std::array<std::size_t, N>& shape) {
  if (t.shape() != shape) t.resize(shape);
}
template <class T>
inline void EnsureShape(Mat<T>& t, std::size_t rows, std::size_t cols) {
  EnsureShape<T, 2>(t, {rows, cols});
}

}  // namespace glimpse
