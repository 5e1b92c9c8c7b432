// A convolutional image path for the glimpse network: a stack of 3 x 3 convolutions (padding 1),
// each followed by a ReLU, then a fully connected layer, in place of RAM's one fully connected layer
// (fc_encoder.h). Two kinds register it with their own stacks:
//
//   x   (N, C, S, S)          the glimpse, C = its scales (channels first); S_0 = S, F_0 = C
//   a_l (N, S_l, S_l, F_l)    = relu(conv 3 x 3, stride s_l, padding 1 of a_{l-1}), S_l = (S_{l-1} - 1) / s_l + 1
//   h_g (N, Gh)               = relu(W a_L + b)
//
// - conv (TwoLayers, conv_encoder.cpp), in the spirit of the spatial transformer paper's ST-CNN
//   (Jaderberg et al. 2015): strides 1, 2; filters F, 2F (F = --conv-filters, 16: a 12 x 12 glimpse
//   of 3 scales gives a_1 of 2,304 and a_2 of 1,152 values a row); drawn as the fully connected
//   layers are (variance 1 / (3 fan_in)).
// - strided (Strided, strided_encoder.cpp), the full-canvas CNN control's deeper and cheaper path:
//   L = --strided-layers convolutions of stride 2, filters F, 2F, 4F, 4F, ... (F = --strided-filters).
//   A 100 x 100 canvas with F = 16 and L = 4 gives maps of 50, 25, 13 and 7 pixels a side and 3,136
//   values into the dense layer: about 8.6M multiply-adds a canvas forward, against the conv stack's
//   23M (whose dense layer has 10M weights). Drawn for a deep ReLU stack (He et al. 2015, "Delving
//   deep into rectifiers": W ~ U(-sqrt(6 / fan_in), sqrt(6 / fan_in)), b = 0); drawn as the fully
//   connected layers are, four of them on a sparse cluttered100 canvas stayed at chance.
//
// The filters are shared over the glimpse's positions, so a stroke is recognised wherever it falls
// in the patch. The cache keeps every a_l of every row, one matrix a layer (CacheRows), written and
// read in place; Forward and Backward work through the rows in chunks of kChunk (Backward keeps the
// chunk's gradients at a_l in the scratch), the convolutions in smaller passes whose largest column
// matrix stays in the CPU cache (ConvRows), the dense layer once per chunk (its weights are the
// largest matrix).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

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

  struct Layer {
    int filters, stride;
  };
  enum class Draw { kDefault, kHe };  // the convolutions' initial weights (see above)
  // The conv kind's stack: strides 1, 2; filters F, 2F.
  static std::vector<Layer> TwoLayers(int f) { return {{f, 1}, {2 * f, 2}}; }
  // The strided kind's stack: `layers` of stride 2; filters F, 2F, 4F, 4F, ...
  static std::vector<Layer> Strided(int f, int layers) {
    Check(layers >= 1, "--strided-layers: at least 1");
    std::vector<Layer> stack;
    for (int l = 0; l < layers; ++l) stack.push_back({f << std::min(l, 2), 2});
    return stack;
  }

  // col_values: the column matrix's budget (kColValues; a test passes a smaller one).
  ConvEncoder(int channels, int side, std::vector<Layer> stack, Draw draw, int hidden, Index col_values = kColValues)
      : c_(channels), s_(side), stack_(std::move(stack)), draw_(draw), gh_(hidden), col_values_(col_values) {
    Check(!stack_.empty(), "a conv image path needs at least one convolution");
  }

  void RegisterParams(ParamStore<T>& store, const std::string& prefix) override {
    using L = typename Conv2d<T>::Layout;
    conv_.clear();
    int channels = c_, side = s_;
    for (std::size_t l = 0; l < stack_.size(); ++l) {
      conv_.emplace_back(store, prefix + ".conv" + std::to_string(l + 1), channels, side, side, stack_[l].filters, 3,
                         stack_[l].stride, 1, l == 0 ? L::kChannelsFirst : L::kChannelsLast);
      channels = stack_[l].filters;
      side = conv_.back().out_height();
    }
    fc_ = Linear<T>(store, prefix + ".fc_x", conv_.back().out_size(), gh_);
    offset_.assign(1, 0);  // a_l's offset in a row of the cache, and its gradient's in the scratch (times kChunk)
    for (const auto& c : conv_) offset_.push_back(offset_.back() + c.out_size());
  }
  void Init(Rng& rng) override {
    for (auto& c : conv_) draw_ == Draw::kHe ? c.InitHe(rng) : c.Init(rng);
    fc_.Init(rng);
  }
  int cache_size() const override { return static_cast<int>(offset_.back()); }
  // col (ConvRows() rows) | the gradients at a_1 .. a_L (kChunk rows each) (Split).
  std::size_t scratch_size() const override {
    return ColSize() + static_cast<std::size_t>(kChunk) * static_cast<std::size_t>(cache_size());
  }

  void Forward(const T* x, int rows, T* hg, CacheRows<T> cache, T* scratch) const override {
    T* col = Split(scratch).col;
    const int cr = ConvRows(), layers = Layers();
    for (int r0 = 0; r0 < rows; r0 += kChunk) {
      const int n = std::min(kChunk, rows - r0);
      for (int q = 0; q < n; q += cr) {  // the convolutions, cr rows at a time, into the cache's a_l
        const int m = std::min(cr, n - q);
        const T* in = x + static_cast<Index>(r0 + q) * conv_[0].in_size();
        for (int l = 0; l < layers; ++l) {
          T* y = Act(cache, l) + static_cast<Index>(r0 + q) * Out(l);
          conv_[l].Forward(in, m, y, col);
          ReluForward(y, static_cast<std::size_t>(m) * Out(l), y);
          in = y;
        }
      }
      T* h = hg + static_cast<Index>(r0) * gh_;
      fc_.Forward(Act(cache, layers - 1) + static_cast<Index>(r0) * Out(layers - 1), n, h);  // once over the chunk
      ReluForward(h, static_cast<std::size_t>(n) * gh_, h);
    }
  }

  void Backward(const T* x, const T* hg, CacheRows<const T> cache, T* dhg, int rows, T* dx, T* scratch) const override {
    Scratch s = Split(scratch);
    const int cr = ConvRows(), last = Layers() - 1;
    ReluBackward(hg, dhg, static_cast<std::size_t>(rows) * gh_, dhg);
    for (int r0 = 0; r0 < rows; r0 += kChunk) {
      const int n = std::min(kChunk, rows - r0);
      fc_.Backward(Act(cache, last) + static_cast<Index>(r0) * Out(last), dhg + static_cast<Index>(r0) * gh_, n,
                   D(s.d, last));
      for (int q = 0; q < n; q += cr) {
        const int m = std::min(cr, n - q);
        for (int l = last; l >= 0; --l) {  // d holds the gradient at a_l; through its ReLU, then its convolution
          const T* y = Act(cache, l) + static_cast<Index>(r0 + q) * Out(l);
          T* d = D(s.d, l) + static_cast<Index>(q) * Out(l);
          ReluBackward(y, d, static_cast<std::size_t>(m) * Out(l), d);
          if (l > 0) {
            conv_[l].Backward(Act(cache, l - 1) + static_cast<Index>(r0 + q) * Out(l - 1), d, m,
                              D(s.d, l - 1) + static_cast<Index>(q) * Out(l - 1), s.col);
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
    T *col, *d;  // d: kChunk rows of the gradient at each a_l, layer after layer
  };
  Scratch Split(T* p) const { return {p, p + ColSize()}; }
  int Layers() const { return static_cast<int>(conv_.size()); }
  // a_l's matrix in the cache, from the pass's first row.
  template <class P>
  P* Act(CacheRows<P> cache, int l) const {
    return cache.at(offset_[l], Out(l));
  }
  // The gradient at a_l: kChunk rows in the scratch.
  T* D(T* block, int l) const { return block + static_cast<Index>(kChunk) * offset_[l]; }
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

  int c_, s_;
  std::vector<Layer> stack_;
  Draw draw_;
  int gh_;
  Index col_values_;
  std::vector<Conv2d<T>> conv_;
  std::vector<Index> offset_ = {0};
  Linear<T> fc_;
};

}  // namespace glimpse
