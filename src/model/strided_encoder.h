// A deeper and cheaper convolutional image path (--glimpse-net strided), built for the full-canvas
// CNN control (--attention cnn), where the two-layer conv path (conv_encoder.h) keeps the canvas at
// half its size into a dense layer of 10M weights: L = --strided-layers 3 x 3 convolutions, each of
// stride 2 and padding 1, each followed by a ReLU, with F, 2F, 4F, 4F, ... filters (F =
// --strided-filters; the count doubles up to 4F), then a dense layer:
//
//   x   (N, C, S, S)          the glimpse (channels first), S_0 = S, F_0 = C
//   a_l (N, S_l, S_l, F_l)    = relu(conv 3 x 3, stride 2, padding 1 of a_{l-1}), S_l = (S_{l-1} - 1) / 2 + 1
//   h_g (N, Gh)               = relu(W a_L + b)
//
// A 100 x 100 canvas with F = 16 and L = 4 gives maps of 50, 25, 13 and 7 pixels a side and 3,136
// values into the dense layer: about 8.6M multiply-adds a canvas forward, against the conv path's
// 23M. The convolutions are drawn for a deep ReLU stack (He et al. 2015, "Delving deep into
// rectifiers": W ~ U(-sqrt(6 / fan_in), sqrt(6 / fan_in)), b = 0); drawn as the fully connected
// layers are (variance 1 / (3 fan_in)), four of them on a sparse cluttered100 canvas stayed at
// chance. As in the conv path, the cache keeps every a_l of every row ([a_1 | ... | a_L] per row);
// Forward and Backward work through the rows in chunks of kChunk in the scratch, the convolutions in
// smaller passes whose largest column matrix stays in the cache (ConvRows), the dense layer once per
// chunk.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "src/model/glimpse_encoder.h"
#include "src/nn/activations.h"
#include "src/nn/conv2d.h"
#include "src/nn/linear.h"

namespace glimpse {

template <class T>
class StridedEncoder : public GlimpseEncoder<T> {
 public:
  static constexpr int kChunk = 128;            // rows per pass of the dense layer
  static constexpr Index kColValues = 1 << 18;  // a column matrix of about 1 MB: the convolutions' rows per pass

  // col_values: the column matrix's budget (kColValues; a test passes a smaller one).
  StridedEncoder(int channels, int side, int filters, int layers, int hidden, Index col_values = kColValues)
      : c_(channels), s_(side), f_(filters), layers_(layers), gh_(hidden), col_values_(col_values) {
    Check(layers >= 1, "--strided-layers: at least 1");
  }

  void RegisterParams(ParamStore<T>& store, const std::string& prefix) override {
    using L = typename Conv2d<T>::Layout;
    store_ = &store;
    conv_.clear();
    int channels = c_, side = s_;
    for (int l = 0; l < layers_; ++l) {
      const int filters = f_ << std::min(l, 2);
      conv_.emplace_back(store, prefix + ".conv" + std::to_string(l + 1), channels, side, side, filters, 3, 2, 1,
                         l == 0 ? L::kChannelsFirst : L::kChannelsLast);
      channels = filters;
      side = conv_.back().out_height();
    }
    fc_ = Linear<T>(store, prefix + ".fc_x", conv_.back().out_size(), gh_);
    offset_.assign(1, 0);  // a_l's offset in a row of the cache, and its chunk's in the scratch (times kChunk)
    for (const auto& c : conv_) offset_.push_back(offset_.back() + c.out_size());
  }
  void Init(Rng& rng) override {
    for (auto& c : conv_) {  // He et al. (2015): W ~ U(-sqrt(6 / fan_in), sqrt(6 / fan_in)), b = 0
      const auto& w = store_->info(c.weight());
      const double fan_in = static_cast<double>(w.size) / c.filters();
      store_->InitUniform(c.weight(), static_cast<T>(std::sqrt(6.0 / fan_in)), rng);
      store_->InitConstant(c.bias(), T(0));
    }
    fc_.Init(rng);
  }
  int cache_size() const override { return static_cast<int>(offset_.back()); }
  // col (ConvRows() rows) | a_1 .. a_L | their gradients (kChunk rows each) (Split).
  std::size_t scratch_size() const override {
    return ColSize() + 2 * static_cast<std::size_t>(kChunk) * static_cast<std::size_t>(cache_size());
  }

  void Forward(const T* x, int rows, T* hg, T* cache, T* scratch) const override {
    Scratch s = Split(scratch);
    const int cr = ConvRows();
    for (int r0 = 0; r0 < rows; r0 += kChunk) {
      const int n = std::min(kChunk, rows - r0);
      for (int q = 0; q < n; q += cr) {  // the convolutions, cr rows at a time
        const int m = std::min(cr, n - q);
        const T* in = x + static_cast<Index>(r0 + q) * conv_[0].in_size();
        for (int l = 0; l < layers_; ++l) {
          T* y = A(s.a, l) + static_cast<Index>(q) * Out(l);
          conv_[l].Forward(in, m, y, s.col);
          ReluForward(y, static_cast<std::size_t>(m) * Out(l), y);
          in = y;
        }
      }
      T* h = hg + static_cast<Index>(r0) * gh_;
      fc_.Forward(A(s.a, layers_ - 1), n, h);  // the dense layer once over the chunk's rows
      ReluForward(h, static_cast<std::size_t>(n) * gh_, h);
      for (int i = 0; i < n; ++i) {  // keep every a_l of each row for Backward
        T* c = cache + static_cast<Index>(r0 + i) * cache_size();
        for (int l = 0; l < layers_; ++l)
          std::copy_n(A(s.a, l) + static_cast<Index>(i) * Out(l), Out(l), c + offset_[l]);
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
        for (int l = 0; l < layers_; ++l)
          std::copy_n(c + offset_[l], Out(l), A(s.a, l) + static_cast<Index>(i) * Out(l));
      }
      const int last = layers_ - 1;
      fc_.Backward(A(s.a, last), dhg + static_cast<Index>(r0) * gh_, n, A(s.d, last));
      for (int q = 0; q < n; q += cr) {
        const int m = std::min(cr, n - q);
        for (int l = last; l >= 0; --l) {  // d holds the gradient at a_l; through its ReLU, then its convolution
          const T* y = A(s.a, l) + static_cast<Index>(q) * Out(l);
          T* d = A(s.d, l) + static_cast<Index>(q) * Out(l);
          ReluBackward(y, d, static_cast<std::size_t>(m) * Out(l), d);
          if (l > 0) {
            conv_[l].Backward(A(s.a, l - 1) + static_cast<Index>(q) * Out(l - 1), d, m,
                              A(s.d, l - 1) + static_cast<Index>(q) * Out(l - 1), s.col);
          } else {
            const Index at = static_cast<Index>(r0 + q) * conv_[0].in_size();
            conv_[0].Backward(x + at, d, m, dx ? dx + at : nullptr, s.col);
          }
        }
      }
    }
  }

 private:
  struct Scratch {
    T *col, *a, *d;  // a, d: kChunk rows of each a_l (and of its gradient), layer after layer
  };
  Scratch Split(T* p) const {
    Scratch s;
    s.col = p;
    s.a = s.col + ColSize();
    s.d = s.a + static_cast<Index>(kChunk) * cache_size();
    return s;
  }
  // Layer l's kChunk rows in a scratch block (a or d).
  T* A(T* block, int l) const { return block + static_cast<Index>(kChunk) * offset_[l]; }
  int Out(int l) const { return conv_[l].out_size(); }
  // Rows per pass of the convolutions: as many as keep the largest column matrix within kColValues
  // (col_values_; at least 1, at most kChunk), so that it stays in the cache between im2col and its product.
  int ConvRows() const {
    Index one = 1;
    for (const auto& c : conv_) one = std::max<Index>(one, static_cast<Index>(c.col_size(1)));
    return static_cast<int>(std::clamp<Index>(col_values_ / one, 1, kChunk));
  }
  // The column matrix of any layer, one at a time.
  std::size_t ColSize() const {
    std::size_t most = 0;
    for (const auto& c : conv_) most = std::max(most, c.col_size(ConvRows()));
    return most;
  }

  int c_, s_, f_, layers_, gh_;
  Index col_values_;
  ParamStore<T>* store_ = nullptr;
  std::vector<Conv2d<T>> conv_;
  std::vector<Index> offset_ = {0};
  Linear<T> fc_;
};

}  // namespace glimpse
