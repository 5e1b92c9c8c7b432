// A convolutional image path for the glimpse network (--glimpse-net conv), in the spirit of the
// spatial transformer paper's ST-CNN (Jaderberg et al. 2015), whose classifier is a CNN on the
// transformed image, in place of RAM's one fully connected layer (fc_encoder.h):
//
//   x  (N, C, S, S)    the glimpse, C = its scales (channels first)
//   a1 (N, S, S, F)    = relu(conv 3 x 3, stride 1, padding 1, F filters)
//   a2 (N, S2, S2, 2F) = relu(conv 3 x 3, stride 2, padding 1, 2F filters), S2 = (S - 1) / 2 + 1
//   h_g (N, Gh)        = relu(W a2 + b)
//
// F = --conv-filters (16: a 12 x 12 glimpse of 3 scales gives a1 of 2,304 and a2 of 1,152 values a
// row). Unlike the fc path, the filters are shared over the glimpse's positions, so a stroke is
// recognised wherever it falls in the patch. The cache keeps a1 and a2 of every row ([a1 | a2]
// per row); Forward and Backward work through the rows in chunks of kChunk in the scratch, the
// convolutions in smaller passes whose column matrix stays in the cache (ConvRows), the dense layer
// once per chunk (its weights are the largest matrix).
#pragma once

#include <algorithm>

#include "src/model/glimpse_encoder.h"
#include "src/nn/activations.h"
#include "src/nn/conv2d.h"
#include "src/nn/linear.h"

namespace glimpse {

template <class T>
class ConvEncoder : public GlimpseEncoder<T> {
 public:
  static constexpr int kChunk = 128;            // rows per pass of the dense layer
  static constexpr Index kColValues = 1 << 18;  // a column matrix of about 1 MB: the convolutions' rows per pass

  // col_values: the column matrix's budget (kColValues; a test passes a smaller one).
  ConvEncoder(int channels, int side, int filters, int hidden, Index col_values = kColValues)
      : c_(channels), s_(side), f_(filters), gh_(hidden), col_values_(col_values) {}

  void RegisterParams(ParamStore<T>& store, const std::string& prefix) override {
    using L = typename Conv2d<T>::Layout;
    conv1_ = Conv2d<T>(store, prefix + ".conv1", c_, s_, s_, f_, 3, 1, 1, L::kChannelsFirst);
    conv2_ = Conv2d<T>(store, prefix + ".conv2", f_, s_, s_, 2 * f_, 3, 2, 1, L::kChannelsLast);
    fc_ = Linear<T>(store, prefix + ".fc_x", conv2_.out_size(), gh_);
  }
  void Init(Rng& rng) override {
    conv1_.Init(rng);
    conv2_.Init(rng);
    fc_.Init(rng);
  }
  int cache_size() const override { return a1() + a2(); }
  // col (ConvRows() rows) | y1 | y2 | d1 | d2 (kChunk rows each) (Split).
  std::size_t scratch_size() const override { return ColSize() + 2 * static_cast<std::size_t>(kChunk) * (a1() + a2()); }

  void Forward(const T* x, int rows, T* hg, T* cache, T* scratch) const override {
    Scratch s = Split(scratch);
    const int cr = ConvRows();
    for (int r0 = 0; r0 < rows; r0 += kChunk) {
      const int n = std::min(kChunk, rows - r0);
      for (int q = 0; q < n; q += cr) {  // the convolutions, cr rows at a time
        const int m = std::min(cr, n - q);
        T* y1 = s.y1 + static_cast<Index>(q) * a1();
        T* y2 = s.y2 + static_cast<Index>(q) * a2();
        conv1_.Forward(x + static_cast<Index>(r0 + q) * In(), m, y1, s.col);
        ReluForward(y1, static_cast<std::size_t>(m) * a1(), y1);
        conv2_.Forward(y1, m, y2, s.col);
        ReluForward(y2, static_cast<std::size_t>(m) * a2(), y2);
      }
      T* h = hg + static_cast<Index>(r0) * gh_;
      fc_.Forward(s.y2, n, h);  // the dense layer once over the chunk's rows
      ReluForward(h, static_cast<std::size_t>(n) * gh_, h);
      for (int i = 0; i < n; ++i) {  // keep a1, a2 of each row for Backward
        T* c = cache + static_cast<Index>(r0 + i) * cache_size();
        std::copy_n(s.y1 + static_cast<Index>(i) * a1(), a1(), c);
        std::copy_n(s.y2 + static_cast<Index>(i) * a2(), a2(), c + a1());
      }
    }
  }

  void Backward(const T* x, const T* hg, const T* cache, T* dhg, int rows, T* dx, T* scratch) const override {
    Scratch s = Split(scratch);
    const int cr = ConvRows();
    ReluBackward(hg, dhg, static_cast<std::size_t>(rows) * gh_, dhg);
    for (int r0 = 0; r0 < rows; r0 += kChunk) {
      const int n = std::min(kChunk, rows - r0);
      for (int i = 0; i < n; ++i) {
        const T* c = cache + static_cast<Index>(r0 + i) * cache_size();
        std::copy_n(c, a1(), s.y1 + static_cast<Index>(i) * a1());
        std::copy_n(c + a1(), a2(), s.y2 + static_cast<Index>(i) * a2());
      }
      fc_.Backward(s.y2, dhg + static_cast<Index>(r0) * gh_, n, s.d2);
      ReluBackward(s.y2, s.d2, static_cast<std::size_t>(n) * a2(), s.d2);
      for (int q = 0; q < n; q += cr) {
        const int m = std::min(cr, n - q);
        const T* y1 = s.y1 + static_cast<Index>(q) * a1();
        T* d1 = s.d1 + static_cast<Index>(q) * a1();
        conv2_.Backward(y1, s.d2 + static_cast<Index>(q) * a2(), m, d1, s.col);
        ReluBackward(y1, d1, static_cast<std::size_t>(m) * a1(), d1);
        const Index at = static_cast<Index>(r0 + q) * In();
        conv1_.Backward(x + at, d1, m, dx ? dx + at : nullptr, s.col);
      }
    }
  }

 private:
  struct Scratch {
    T *col, *y1, *y2, *d1, *d2;
  };
  Scratch Split(T* p) const {
    Scratch s;
    s.col = p;
    s.y1 = s.col + ColSize();
    s.y2 = s.y1 + static_cast<Index>(kChunk) * a1();
    s.d1 = s.y2 + static_cast<Index>(kChunk) * a2();
    s.d2 = s.d1 + static_cast<Index>(kChunk) * a1();
    return s;
  }
  // Rows per pass of the convolutions: as many as keep the larger column matrix within kColValues
  // (col_values_; at least 1, at most kChunk), so that it stays in the cache between im2col and its product.
  int ConvRows() const {
    const auto one = static_cast<Index>(std::max(conv1_.col_size(1), conv2_.col_size(1)));
    return static_cast<int>(std::clamp<Index>(col_values_ / one, 1, kChunk));
  }
  // The column matrix of either convolution, one at a time.
  std::size_t ColSize() const { return std::max(conv1_.col_size(ConvRows()), conv2_.col_size(ConvRows())); }
  int In() const { return conv1_.in_size(); }
  int a1() const { return conv1_.out_size(); }
  int a2() const { return conv2_.out_size(); }

  int c_, s_, f_, gh_;
  Index col_values_;
  Conv2d<T> conv1_, conv2_;
  Linear<T> fc_;
};

}  // namespace glimpse
