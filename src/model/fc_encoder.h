// RAM's image path of the glimpse network (Mnih et al. 2014, section 4): h_g = relu(W_g x + b_g),
// x (N, D) the glimpse as one vector, h_g (N, Gh). Its parameters are glimpse.fc_x.{W, b}, the names
// every run file before --glimpse-net has.
#pragma once

#include "src/model/glimpse_encoder.h"
#include "src/nn/activations.h"
#include "src/nn/linear.h"

namespace glimpse {

template <class T>
class FcEncoder : public GlimpseEncoder<T> {
 public:
  FcEncoder(int glimpse_size, int hidden) : d_(glimpse_size), gh_(hidden) {}
  void RegisterParams(ParamStore<T>& store, const std::string& prefix) override {
    fc_ = Linear<T>(store, prefix + ".fc_x", d_, gh_);
  }
  void Init(Rng& rng) override { fc_.Init(rng); }
  void Forward(const T* x, int rows, T* hg, CacheRows<T> /*cache*/, T* /*scratch*/) const override {
    fc_.Forward(x, rows, hg);
    ReluForward(hg, static_cast<std::size_t>(rows) * gh_, hg);
  }
  void Backward(const T* x, const T* hg, CacheRows<const T> /*cache*/, T* dhg, int rows, T* dx,
                T* /*scratch*/) const override {
    ReluBackward(hg, dhg, static_cast<std::size_t>(rows) * gh_, dhg);
    fc_.Backward(x, dhg, rows, dx);
  }

 private:
  int d_, gh_;
  Linear<T> fc_;
};

}  // namespace glimpse
