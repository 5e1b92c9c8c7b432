// LSTM cell (Hochreiter & Schmidhuber 1997; the form without peepholes used by PyTorch):
//   [i f g o] (B, 4H) = x (B, I) Wx^T + h_{t-1} (B, H) Wh^T + b
//   i, f, o = sigmoid(.), g = tanh(.); c_t = f c_{t-1} + i g; h_t = o tanh(c_t).
// h_prev / c_prev may be null (zeros, the first step). The forget-gate bias starts at 1.
//
// Two ways to run it: Forward/Backward per step with an LstmCache (tests, simple users), or the
// raw-pointer StepForward/GateBackward plus the exposed input and recurrent layers, which lets a
// caller form the weight gradients of all T steps in one large matrix product (src/model).
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

  // Raw form: gates (B, 4H) receives the activated gates; c, tanh_c, h are (B, H).
  void StepForward(const T* x, const T* h_prev, const T* c_prev, int batch, T* gates, T* c, T* tanh_c, T* h) const {
    const int H = hidden_;
    in_.Forward(x, batch, gates);
    if (h_prev != nullptr) hh_.Forward(h_prev, batch, gates, /*accumulate=*/true);
    for (int r = 0; r < batch; ++r) {
      const Index o1 = static_cast<Index>(r) * H;
      T* zr = gates + 4 * o1;
      VSigmoid(zr, static_cast<std::size_t>(2 * H), zr);              // i, f
      VTanh(zr + 2 * H, static_cast<std::size_t>(H), zr + 2 * H);     // g
      VSigmoid(zr + 3 * H, static_cast<std::size_t>(H), zr + 3 * H);  // o
      T* cr = c + o1;
      for (int j = 0; j < H; ++j) cr[j] = zr[j] * zr[2 * H + j] + (c_prev ? zr[H + j] * c_prev[o1 + j] : T(0));
      VTanh(cr, static_cast<std::size_t>(H), tanh_c + o1);
      for (int j = 0; j < H; ++j) h[o1 + j] = zr[3 * H + j] * tanh_c[o1 + j];
    }
  }

  // From dh (B, H) at h_t and dc (B, H, or null) at c_t from step t+1: dz (B, 4H) = gradient at the
  // gate pre-activations, and dc_prev (B, H, or null) = gradient at c_{t-1}.
  void GateBackward(const T* gates, const T* tanh_c, const T* c_prev, const T* dh, const T* dc, int batch, T* dz,
                    T* dc_prev) const {
    const int H = hidden_;
    for (int r = 0; r < batch; ++r) {
      const Index o1 = static_cast<Index>(r) * H;
      const T* a = gates + 4 * o1;
      T* dzr = dz + 4 * o1;
      for (int j = 0; j < H; ++j) {
        const T i = a[j], f = a[H + j], g = a[2 * H + j], o = a[3 * H + j];
        const T tc = tanh_c[o1 + j], dhj = dh[o1 + j];
        const T dct = (dc ? dc[o1 + j] : T(0)) + dhj * o * (T(1) - tc * tc);
        const T cp = c_prev ? c_prev[o1 + j] : T(0);
        dzr[j] = dct * g * i * (T(1) - i);
        dzr[H + j] = dct * cp * f * (T(1) - f);
        dzr[2 * H + j] = dct * i * (T(1) - g * g);
        dzr[3 * H + j] = dhj * tc * o * (T(1) - o);
        if (dc_prev) dc_prev[o1 + j] = dct * f;
      }
    }
  }

  // Cache form. cache must have been Resize()d to (batch, hidden).
  void Forward(const T* x, const T* h_prev, const T* c_prev, int batch, LstmCache<T>& cache) const {
    StepForward(x, h_prev, c_prev, batch, cache.gates.data(), cache.c.data(), cache.tanh_c.data(), cache.h.data());
  }

  // Writes dx (B, I), dh_prev (B, H), dc_prev (B, H) (each may be null; with accumulate, dx and
  // dh_prev are added to; dc_prev is always overwritten).
  void Backward(const T* x, const T* h_prev, const T* c_prev, const LstmCache<T>& cache, const T* dh, const T* dc,
                int batch, T* dx, T* dh_prev, T* dc_prev, bool accumulate = false) {
    EnsureShape(dz_, static_cast<std::size_t>(batch), static_cast<std::size_t>(4 * hidden_));
    GateBackward(cache.gates.data(), cache.tanh_c.data(), c_prev, dh, dc, batch, dz_.data(), dc_prev);
    in_.Backward(x, dz_.data(), batch, dx, accumulate);
    if (h_prev != nullptr) hh_.Backward(h_prev, dz_.data(), batch, dh_prev, accumulate);
  }

  int hidden() const { return hidden_; }
  const Linear<T>& input_layer() const { return in_; }
  const Linear<T>& recurrent_layer() const { return hh_; }

 private:
  ParamStore<T>* store_ = nullptr;
  int hidden_ = 0;
  Linear<T> in_, hh_;
  Mat<T> dz_;  // scratch (B, 4H): d(pre-activation); resized only when the batch changes
};

}  // namespace glimpse
