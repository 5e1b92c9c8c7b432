// LSTM cell (Hochreiter & Schmidhuber 1997; the form without peepholes used by PyTorch):
//   [i f g o] (B, 4H) = x (B, I) Wx^T + h_{t-1} (B, H) Wh^T + b
//   i, f, o = sigmoid(.), g = tanh(.); c_t = f c_{t-1} + i g; h_t = o tanh(c_t).
// h_prev / c_prev may be null (zeros, the first step). The forget-gate bias starts at 1.
#pragma once

#include <string>

#include "src/nn/activations.h"
#include "src/nn/linear.h"

namespace glimpse {

// Everything one step's Backward needs beyond x, h_prev and c_prev. All (B, .) row-major.
template <class T>
struct LstmCache {
  Mat<T> gates;   // (B, 4H): activated i, f, g, o
  Mat<T> c;       // (B, H)
  Mat<T> tanh_c;  // (B, H)
  Mat<T> h;       // (B, H)
  void Resize(int batch, int hidden) {
    const auto b = static_cast<std::size_t>(batch), hs = static_cast<std::size_t>(hidden);
    EnsureShape(gates, b, 4 * hs);
    EnsureShape(c, b, hs);
    EnsureShape(tanh_c, b, hs);
    EnsureShape(h, b, hs);
  }
};

template <class T>
class LstmCell {
 public:
  LstmCell() = default;
  LstmCell(ParamStore<T>& store, const std::string& name, int input, int hidden)
      : store_(&store),
        hidden_(hidden),
        in_(store, name + ".in", input, 4 * hidden, true),
        hh_(store, name + ".hh", hidden, 4 * hidden, false) {}

  void Init(Rng& rng) {
    in_.Init(rng);
    hh_.Init(rng);
    T* b = store_->value(in_.bias());
    for (int j = hidden_; j < 2 * hidden_; ++j) b[j] = T(1);
  }

  // cache must have been Resize()d to (batch, hidden).
  void Forward(const T* x, const T* h_prev, const T* c_prev, int batch, LstmCache<T>& cache) const {
    const int H = hidden_;
    T* z = cache.gates.data();
    in_.Forward(x, batch, z);
    if (h_prev != nullptr) hh_.Forward(h_prev, batch, z, /*accumulate=*/true);
    for (int r = 0; r < batch; ++r) {
      T* zr = z + static_cast<Index>(r) * 4 * H;
      T* c = cache.c.data() + static_cast<Index>(r) * H;
      T* tc = cache.tanh_c.data() + static_cast<Index>(r) * H;
      T* h = cache.h.data() + static_cast<Index>(r) * H;
      const T* cp = c_prev ? c_prev + static_cast<Index>(r) * H : nullptr;
      for (int j = 0; j < H; ++j) {
        const T i = Sigmoid(zr[j]), f = Sigmoid(zr[H + j]);
        const T g = std::tanh(zr[2 * H + j]), o = Sigmoid(zr[3 * H + j]);
        zr[j] = i;
        zr[H + j] = f;
        zr[2 * H + j] = g;
        zr[3 * H + j] = o;
        c[j] = i * g + (cp ? f * cp[j] : T(0));
        tc[j] = std::tanh(c[j]);
        h[j] = o * tc[j];
      }
    }
  }

  // dh (B, H): gradient at h_t; dc (B, H) or null: gradient at c_t from step t+1.
  // Writes dx (B, I), dh_prev (B, H), dc_prev (B, H) (each may be null; with accumulate, dx and
  // dh_prev are added to; dc_prev is always overwritten).
  void Backward(const T* x, const T* h_prev, const T* c_prev, const LstmCache<T>& cache,
                const T* dh, const T* dc, int batch, T* dx, T* dh_prev, T* dc_prev,
                bool accumulate = false) {
    const int H = hidden_;
    EnsureShape(dz_, static_cast<std::size_t>(batch), static_cast<std::size_t>(4 * H));
    for (int r = 0; r < batch; ++r) {
      const Index o1 = static_cast<Index>(r) * H, o4 = static_cast<Index>(r) * 4 * H;
      const T* a = cache.gates.data() + o4;
      const T* tc = cache.tanh_c.data() + o1;
      T* dzr = dz_.data() + o4;
      for (int j = 0; j < H; ++j) {
        const T i = a[j], f = a[H + j], g = a[2 * H + j], o = a[3 * H + j];
        const T dhj = dh[o1 + j];
        const T dct = (dc ? dc[o1 + j] : T(0)) + dhj * o * (T(1) - tc[j] * tc[j]);
        const T cp = c_prev ? c_prev[o1 + j] : T(0);
        dzr[j] = dct * g * i * (T(1) - i);
        dzr[H + j] = dct * cp * f * (T(1) - f);
        dzr[2 * H + j] = dct * i * (T(1) - g * g);
        dzr[3 * H + j] = dhj * tc[j] * o * (T(1) - o);
        if (dc_prev) dc_prev[o1 + j] = dct * f;
      }
    }
    in_.Backward(x, dz_.data(), batch, dx, accumulate);
    if (h_prev != nullptr) hh_.Backward(h_prev, dz_.data(), batch, dh_prev, accumulate);
  }

  int hidden() const { return hidden_; }

 private:
  ParamStore<T>* store_ = nullptr;
  int hidden_ = 0;
  Linear<T> in_, hh_;
  Mat<T> dz_;  // scratch (B, 4H): d(pre-activation); resized only when the batch changes
};

}  // namespace glimpse
