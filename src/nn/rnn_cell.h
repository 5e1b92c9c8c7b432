// Elman RNN cell with ReLU, as in RAM's core network (Mnih et al. 2014, section 4):
//   h_t (B, H) = relu(x_t (B, I) Wx^T + h_{t-1} (B, H) Wh^T + b).
// h_{t-1} may be null, meaning zeros (the first step): the recurrent product is then skipped.
#pragma once

#include <string>

#include "src/nn/activations.h"
#include "src/nn/linear.h"

namespace glimpse {

template <class T>
class RnnCell {
 public:
  RnnCell() = default;
  RnnCell(ParamStore<T>& store, const std::string& name, int input, int hidden)
      : hidden_(hidden),
        in_(store, name + ".in", input, hidden, true),
        hh_(store, name + ".hh", hidden, hidden, false) {}

  void Init(Rng& rng) {
    in_.Init(rng);
    hh_.Init(rng);
  }

  // h (B, H): the output, which is also everything Backward needs beyond x and h_prev.
  void Forward(const T* x, const T* h_prev, int batch, T* h) const {
    in_.Forward(x, batch, h);
    if (h_prev != nullptr) hh_.Forward(h_prev, batch, h, /*accumulate=*/true);
    const std::size_t n = static_cast<std::size_t>(batch) * hidden_;
    ReluForward(h, n, h);
  }

  // dh (B, H) is the total gradient arriving at h_t; it is overwritten with d(pre-activation).
  // Writes dx (B, I) and dh_prev (B, H) (either may be null; with accumulate they are added to).
  void Backward(const T* x, const T* h_prev, const T* h, T* dh, int batch, T* dx, T* dh_prev,
                bool accumulate = false) const {
    const std::size_t n = static_cast<std::size_t>(batch) * hidden_;
    ReluBackward(h, dh, n, dh);
    in_.Backward(x, dh, batch, dx, accumulate);
    if (h_prev != nullptr) hh_.Backward(h_prev, dh, batch, dh_prev, accumulate);
  }

  int hidden() const { return hidden_; }
  const Linear<T>& input_layer() const { return in_; }
  const Linear<T>& recurrent_layer() const { return hh_; }

 private:
  int hidden_ = 0;
  Linear<T> in_, hh_;
};

}  // namespace glimpse
