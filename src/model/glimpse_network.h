// RAM's glimpse network (Mnih et al. 2014, section 4):
//   h_g = f(x)                                           (x: glimpse (N, D); f: the encoder, below)
//   h_l = relu(W_l l + b_l)                              (l: read params (N, P))
//   g   = relu(W_hg h_g + W_hl h_l + b)                  (N, G)
// f is the registered image path of --glimpse-net (glimpse_encoder.h): RAM's relu(W_g x + b_g)
// (fc), or a small convolutional network (conv). Rows may span several steps: Backward runs once
// over all T N rows of an episode. `cache` and `scratch` are the encoder's (CacheRows of
// cache_size() values a row, scratch_size() values).
#pragma once

#include <memory>
#include <string>

#include "src/model/glimpse_encoder.h"
#include "src/nn/activations.h"
#include "src/nn/linear.h"

namespace glimpse {

template <class T>
class GlimpseNetwork {
 public:
  // Registers the encoder's parameters first (so RAM's glimpse.fc_x keeps its place in the store).
  GlimpseNetwork(ParamStore<T>& store, const std::string& name, std::unique_ptr<GlimpseEncoder<T>> encoder,
                 int param_size, int hidden, int out)
      : hidden_(hidden), out_(out), encoder_(std::move(encoder)) {
    encoder_->RegisterParams(store, name);
    fc_l_ = Linear<T>(store, name + ".fc_l", param_size, hidden);
    fc_hg_ = Linear<T>(store, name + ".fc_hg", hidden, out, true);
    fc_hl_ = Linear<T>(store, name + ".fc_hl", hidden, out, false);
  }

  void Init(Rng& rng) {
    encoder_->Init(rng);
    fc_l_.Init(rng);
    fc_hg_.Init(rng);
    fc_hl_.Init(rng);
  }

  // x (N, D), l (N, P) -> hg (N, hidden), hl (N, hidden), g (N, out); writes the cache's rows.
  void Forward(const T* x, const T* l, int rows, T* hg, T* hl, T* g, CacheRows<T> cache, T* scratch) const {
    const std::size_t nh = static_cast<std::size_t>(rows) * hidden_;
    encoder_->Forward(x, rows, hg, cache, scratch);
    fc_l_.Forward(l, rows, hl);
    ReluForward(hl, nh, hl);
    fc_hg_.Forward(hg, rows, g);
    fc_hl_.Forward(hl, rows, g, /*accumulate=*/true);
    ReluForward(g, static_cast<std::size_t>(rows) * out_, g);
  }

  // dg (N, out) is overwritten with d(pre-activation); dhg, dhl (N, hidden) are scratch. Writes
  // dx (N, D) and dl (N, P) when not null (differentiable sensors need them; RAM's retina does not).
  void Backward(const T* x, const T* l, const T* hg, const T* hl, const T* g, T* dg, int rows, T* dhg, T* dhl, T* dx,
                T* dl, CacheRows<const T> cache, T* scratch) const {
    const std::size_t nh = static_cast<std::size_t>(rows) * hidden_;
    ReluBackward(g, dg, static_cast<std::size_t>(rows) * out_, dg);
    fc_hg_.Backward(hg, dg, rows, dhg);
    fc_hl_.Backward(hl, dg, rows, dhl);
    ReluBackward(hl, dhl, nh, dhl);
    encoder_->Backward(x, hg, cache, dhg, rows, dx, scratch);
    fc_l_.Backward(l, dhl, rows, dl);
  }

  int hidden() const { return hidden_; }
  int out() const { return out_; }
  int cache_size() const { return encoder_->cache_size(); }
  std::size_t scratch_size() const { return encoder_->scratch_size(); }

 private:
  int hidden_, out_;
  std::unique_ptr<GlimpseEncoder<T>> encoder_;
  Linear<T> fc_l_, fc_hg_, fc_hl_;
};

}  // namespace glimpse
