// 2-D convolution on a minibatch by im2col and one BLAS product (as in Caffe's and Darknet's CPU
// convolutions): every output position of every row becomes a row of the column matrix, so the
// layer is a Linear layer (k k C -> F) applied to the B OH OW rows of that matrix, whatever the batch.
//
// Shapes. Input x (B, C, H, W) (Layout::kChannelsFirst: a sensor's (B, k, g, g) glimpse) or
// (B, H, W, C) (kChannelsLast: the output of another Conv2d); output y (B, OH, OW, F), channels
// last, OH = (H + 2 pad - k) / stride + 1 (likewise OW). Weights W (F, k, k, C): column
// (ky k + kx) C + c of the column matrix is input channel c at kernel offset (ky, kx); bias b (F).
// Pixels outside the input (the padding) read as zero.
//
// The column matrix is the caller's scratch (col_size(rows) values, with a channels-last copy of a
// multi-channel channels-first input after it), so the layer keeps no state and several rollouts
// may share it. Backward forms the columns again from x rather than keeping
// them: they are k k times larger than the input.
#pragma once

#include <algorithm>
#include <string>

#include "src/core/params.h"
#include "src/nn/linear.h"

namespace glimpse {

template <class T>
class Conv2d {
 public:
  enum class Layout { kChannelsFirst, kChannelsLast };

  Conv2d() = default;
  Conv2d(ParamStore<T>& store, const std::string& name, int channels, int height, int width, int filters, int kernel,
         int stride, int pad, Layout layout)
      : c_(channels), h_(height), w_(width), f_(filters), k_(kernel), s_(stride), p_(pad), layout_(layout) {
    Check(channels >= 1 && filters >= 1 && kernel >= 1 && stride >= 1 && pad >= 0, "Conv2d ", name, ": bad shape");
    oh_ = (h_ + 2 * p_ - k_) / s_ + 1;
    ow_ = (w_ + 2 * p_ - k_) / s_ + 1;
    Check(oh_ >= 1 && ow_ >= 1, "Conv2d ", name, ": a ", k_, " x ", k_, " kernel does not fit a ", h_, " x ", w_,
          " input padded by ", p_);
    fc_ = Linear<T>(store, name, cols(), f_, /*bias=*/true,
                    {static_cast<std::size_t>(f_), static_cast<std::size_t>(k_), static_cast<std::size_t>(k_),
                     static_cast<std::size_t>(c_)});
  }

  // PyTorch's default for a convolution: W, b ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = k k C
  // (Linear's, whose fan-in is the column matrix's width).
  void Init(Rng& rng) { fc_.Init(rng); }
  // He et al. (2015) for a deep ReLU stack: W ~ U(-sqrt(6 / fan_in), sqrt(6 / fan_in)), b = 0.
  void InitHe(Rng& rng) { fc_.InitHe(rng); }

  // y (B, OH, OW, F) = conv(x) + b. col: scratch of col_size(rows) values.
  void Forward(const T* x, int rows, T* y, T* col) const {
    Im2Col(x, rows, col);
    fc_.Forward(col, rows * oh_ * ow_, y);
  }

  // Given x and dy (B, OH, OW, F): dW += dy^T col, db += column sums of dy, and when dx is not null
  // dx (x's shape) = the transpose convolution of dy (overwritten). col: scratch as in Forward.
  void Backward(const T* x, const T* dy, int rows, T* dx, T* col) const {
    Im2Col(x, rows, col);
    const int P = rows * oh_ * ow_;
    fc_.BackwardParams(col, dy, P);
    if (dx == nullptr) return;
    fc_.BackwardInput(dy, P, col);  // the columns' gradient, over the columns (no longer needed)
    Col2Im(col, rows, dx);
  }

  int out_height() const { return oh_; }
  int out_width() const { return ow_; }
  int filters() const { return f_; }
  int in_size() const { return c_ * h_ * w_; }     // values per input row
  int out_size() const { return oh_ * ow_ * f_; }  // values per output row
  // The scratch Forward and Backward need: the column matrix, and for a channels-first input of more
  // than one channel a channels-last copy of it.
  std::size_t col_size(int rows) const {
    return static_cast<std::size_t>(ColValues(rows) + (Transposed() ? static_cast<Index>(rows) * in_size() : 0));
  }
  ParamId weight() const { return fc_.weight(); }
  ParamId bias() const { return fc_.bias(); }

 private:
  int cols() const { return k_ * k_ * c_; }

  // Calls span(e, src, n) for every run of one kernel row's taps that falls inside the input: its n
  // values (taps x C channels) lie contiguous both in the column matrix (from e) and in a channels-
  // last input (from src); zero(e, n) for the runs in the padding. Rows, output positions and kernel
  // rows in order, so every column-matrix value is visited once, left to right.
  template <class S, class Z>
  void ForEachSpan(int rows, S&& span, Z&& zero) const {
    const Index in = in_size();
    const int run = k_ * c_;  // one kernel row's values
    Index e = 0;
    for (int b = 0; b < rows; ++b)
      for (int oy = 0; oy < oh_; ++oy)
        for (int ox = 0; ox < ow_; ++ox)
          for (int ky = 0; ky < k_; ++ky, e += run) {
            const int i = oy * s_ - p_ + ky, j0 = ox * s_ - p_;
            const int lo = std::min(k_, std::max(0, -j0)), hi = std::max(lo, std::min(k_, w_ - j0));
            if (i < 0 || i >= h_ || hi == lo) {
              zero(e, run);
              continue;
            }
            if (lo > 0) zero(e, lo * c_);
            span(e + lo * c_, b * in + (static_cast<Index>(i) * w_ + j0 + lo) * c_, (hi - lo) * c_);
            if (hi < k_) zero(e + hi * c_, (k_ - hi) * c_);
          }
  }
  // A channels-first input of more than one channel is read through a channels-last copy (after the
  // columns in the scratch), so that every kernel row's taps are one contiguous run.
  bool Transposed() const { return layout_ == Layout::kChannelsFirst && c_ > 1; }
  Index ColValues(int rows) const { return static_cast<Index>(rows) * oh_ * ow_ * cols(); }
  // x (B, C, H W) -> xt (B, H W, C), or back when `back`.
  void Transpose(const T* x, int rows, T* xt, bool back) const {
    const Index hw = static_cast<Index>(h_) * w_;
    for (int b = 0; b < rows; ++b) {
      const Index o = b * hw * c_;
      for (int c = 0; c < c_; ++c)
        for (Index q = 0; q < hw; ++q) {
          if (back)
            xt[o + c * hw + q] = x[o + q * c_ + c];
          else
            xt[o + q * c_ + c] = x[o + c * hw + q];
        }
    }
  }
  void Im2Col(const T* x, int rows, T* col) const {
    if (Transposed()) {
      T* xt = col + ColValues(rows);
      Transpose(x, rows, xt, false);
      x = xt;
    }
    ForEachSpan(
        rows, [&](Index e, Index src, int n) { std::copy_n(x + src, n, col + e); },
        [&](Index e, int n) { std::fill_n(col + e, n, T(0)); });
  }
  void Col2Im(T* col, int rows, T* dx) const {
    T* acc = Transposed() ? col + ColValues(rows) : dx;  // the scratch past the columns
    std::fill(acc, acc + static_cast<Index>(rows) * in_size(), T(0));
    ForEachSpan(
        rows,
        [&](Index e, Index src, int n) {
          for (int t = 0; t < n; ++t) acc[src + t] += col[e + t];
        },
        [](Index, int) {});
    if (Transposed()) Transpose(acc, rows, dx, true);
  }

  int c_ = 0, h_ = 0, w_ = 0, f_ = 0, k_ = 0, s_ = 1, p_ = 0, oh_ = 0, ow_ = 0;
  Layout layout_ = Layout::kChannelsFirst;
  Linear<T> fc_;  // W (F, k, k, C) read as (F, k k C), b (F)
};

}  // namespace glimpse
