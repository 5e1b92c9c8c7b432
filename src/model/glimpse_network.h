// RAM's glimpse network (Mnih et al. 2014, section 4):
//   h_g = relu(W_g x + b_g), h_l = relu(W_l l + b_l)   (x: glimpse (N, D), l: read params (N, P))
//   g   = relu(W_hg h_g + W_hl h_l + b)                 (N, G)
// Rows may span several steps: Backward runs once over all T N rows of an episode.
#pragma once

#include <string>

#include "src/nn/activations.h"
#include "src/nn/linear.h"

namespace glimpse {

template <class T>
class GlimpseNetwork {
 public:
  GlimpseNetwork(ParamStore<T>& store, const std::string& name, int glimpse_size, int param_size,
                 int hidden, int out)
      : hidden_(hidden),
        out_(out),
        fc_x_(store, name + ".fc_x", glimpse_size, hidden),
        fc_l_(store, name + ".fc_l", param_size, hidden),
        fc_hg_(store, name + ".fc_hg", hidden, out, true),
        fc_hl_(store, name + ".fc_hl", hidden, out, false) {}

  void Init(Rng& rng) {
    fc_x_.Init(rng);
    fc_l_.Init(rng);
    fc_hg_.Init(rng);
    fc_hl_.Init(rng);
  }

  // x (N, D), l (N, P) -> hg (N, hidden), hl (N, hidden), g (N, out).
  void Forward(const T* x, const T* l, int rows, T* hg, T* hl, T* g) const {
    const std::size_t nh = static_cast<std::size_t>(rows) * hidden_;
    fc_x_.Forward(x, rows, hg);
    ReluForward(hg, nh, hg);
    fc_l_.Forward(l, rows, hl);
    ReluForward(hl, nh, hl);
    fc_hg_.Forward(hg, rows, g);
    fc_hl_.Forward(hl, rows, g, /*accumulate=*/true);
    ReluForward(g, static_cast<std::size_t>(rows) * out_, g);
  }

  // dg (N, out) is overwritten with d(pre-activation); dhg, dhl (N, hidden) are scratch. Writes
  // dx (N, D) and dl (N, P) when not null (differentiable sensors need them; RAM's retina does not).
  void Backward(const T* x, const T* l, const T* hg, const T* hl, const T* g, T* dg, int rows,
                T* dhg, T* dhl, T* dx, T* dl) const {
    const std::size_t nh = static_cast<std::size_t>(rows) * hidden_;
    ReluBackward(g, dg, static_cast<std::size_t>(rows) * out_, dg);
    fc_hg_.Backward(hg, dg, rows, dhg);
    fc_hl_.Backward(hl, dg, rows, dhl);
    ReluBackward(hg, dhg, nh, dhg);
    ReluBackward(hl, dhl, nh, dhl);
    fc_x_.Backward(x, dhg, rows, dx);
    fc_l_.Backward(l, dhl, rows, dl);
  }

  int hidden() const { return hidden_; }
  int out() const { return out_; }

 private:
  int hidden_, out_;
  Linear<T> fc_x_, fc_l_, fc_hg_, fc_hl_;
};

}  // namespace glimpse
