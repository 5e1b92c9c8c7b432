// Fully connected layer on a minibatch: y (B, out) = x (B, in) W^T + b, W (out, in), b (out).
// Both products go through BLAS. Backward accumulates into the parameter gradients, so backprop
// through time is T calls in reverse.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "src/core/blas.h"
#include "src/core/params.h"

namespace glimpse {

template <class T>
class Linear {
 public:
  Linear() = default;
  // weight_shape: the shape W is registered with, when a caller reads the (out, in) matrix as more
  // dimensions (a convolution's (F, k, k, C)); its product must be out in. Empty: (out, in).
  Linear(ParamStore<T>& store, const std::string& name, int in, int out, bool bias = true,
         std::vector<std::size_t> weight_shape = {})
      : store_(&store), in_(in), out_(out) {
    if (weight_shape.empty()) weight_shape = {static_cast<std::size_t>(out), static_cast<std::size_t>(in)};
    std::size_t n = 1;
    for (std::size_t d : weight_shape) n *= d;
    Check(n == static_cast<std::size_t>(out) * in, "Linear ", name, ": a weight shape of ", n, " values for ", out,
          " x ", in);
    w_ = store.Register(name + ".W", std::move(weight_shape));
    if (bias) b_ = store.Register(name + ".b", {static_cast<std::size_t>(out)});
  }
  // Its tensors in the store: W, then b when it has one.
  std::vector<ParamId> params() const { return b_ >= 0 ? std::vector<ParamId>{w_, b_} : std::vector<ParamId>{w_}; }

  // PyTorch's default: W, b ~ U(-1/sqrt(in), 1/sqrt(in)).
  void Init(Rng& rng) {
    const T scale = static_cast<T>(1.0 / std::sqrt(static_cast<double>(in_)));
    store_->InitUniform(w_, scale, rng);
    if (b_ >= 0) store_->InitUniform(b_, scale, rng);
  }

  // He et al. (2015) for a layer that feeds a ReLU: W ~ U(-sqrt(6/in), sqrt(6/in)) (variance 2 / in), b = 0.
  void InitHe(Rng& rng) {
    store_->InitUniform(w_, static_cast<T>(std::sqrt(6.0 / static_cast<double>(in_))), rng);
    if (b_ >= 0) store_->InitConstant(b_, T(0));
  }

  // y (B, out) = x (B, in) W^T + b; with accumulate, y += x W^T + b.
  void Forward(const T* x, int batch, T* y, bool accumulate = false) const {
    Gemm<T>(false, true, batch, out_, in_, T(1), x, in_, store_->value(w_), in_, accumulate ? T(1) : T(0), y, out_);
    if (b_ >= 0) {
      const T* b = store_->value(b_);
      for (int r = 0; r < batch; ++r) {
        T* yr = y + static_cast<Index>(r) * out_;
        for (int j = 0; j < out_; ++j) yr[j] += b[j];
      }
    }
  }

  // Given x (B, in) and dy (B, out): dW += dy^T x, db += sum_rows dy, and if dx is not null,
  // dx (B, in) = dy W (or += with accumulate_dx).
  void Backward(const T* x, const T* dy, int batch, T* dx, bool accumulate_dx = false) const {
    BackwardParams(x, dy, batch);
    if (dx != nullptr) BackwardInput(dy, batch, dx, accumulate_dx);
  }

  // The parameter half of Backward: dW += dy^T x, db += sum_rows dy.
  void BackwardParams(const T* x, const T* dy, int batch) const {
    Gemm<T>(true, false, out_, in_, batch, T(1), dy, out_, x, in_, T(1), store_->grad(w_), in_);
    if (b_ >= 0) {
      T* db = store_->grad(b_);
      for (int r = 0; r < batch; ++r) {
        const T* dyr = dy + static_cast<Index>(r) * out_;
        for (int j = 0; j < out_; ++j) db[j] += dyr[j];
      }
    }
  }

  // The input half of Backward: dx (B, in) = dy W (or += with accumulate).
  void BackwardInput(const T* dy, int batch, T* dx, bool accumulate = false) const {
    Gemm<T>(false, false, batch, in_, out_, T(1), dy, out_, store_->value(w_), in_, accumulate ? T(1) : T(0), dx, in_);
  }

  int in() const { return in_; }
  int out() const { return out_; }
  ParamId weight() const { return w_; }
  ParamId bias() const { return b_; }

 private:
  ParamStore<T>* store_ = nullptr;
  int in_ = 0, out_ = 0;
  ParamId w_ = -1, b_ = -1;
};

}  // namespace glimpse
