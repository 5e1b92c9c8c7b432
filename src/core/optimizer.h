// Optimizers over the flat parameter buffer: SGD with (heavy-ball) momentum, and Adam.
// Both are one loop over ParamStore's values and gradients; their state is a few flat buffers that
// the checkpoint stores by name.
#pragma once

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/core/params.h"
#include "src/core/registry.h"

namespace glimpse {

template <class T>
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // One update with learning rate lr, from the gradients in store.grads().
  virtual void Step(ParamStore<T>& store, T lr) = 0;
  // Named state buffers (each the size of the parameter buffer) for checkpoints.
  virtual std::vector<std::pair<std::string, Vec<T>*>> StateBuffers() = 0;
  // Number of steps taken (Adam's bias correction uses it); saved in checkpoints.
  std::int64_t steps = 0;
};

// PyTorch's convention: v <- mu v + g; p <- p - lr v. mu = 0 is plain SGD.
template <class T>
class Sgd : public Optimizer<T> {
 public:
  Sgd(std::size_t n, T momentum) : momentum_(momentum), velocity_(xt::zeros<T>({n})) {}
  void Step(ParamStore<T>& store, T lr) override {
    T* __restrict p = store.values().data();
    const T* __restrict g = store.grads().data();
    T* __restrict v = velocity_.data();
    const T mu = momentum_;
    const std::size_t n = store.size();
    if (mu == T(0)) {
      for (std::size_t i = 0; i < n; ++i) p[i] -= lr * g[i];
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        v[i] = mu * v[i] + g[i];
        p[i] -= lr * v[i];
      }
    }
    ++this->steps;
  }
  std::vector<std::pair<std::string, Vec<T>*>> StateBuffers() override { return {{"velocity", &velocity_}}; }

 private:
  T momentum_;
  Vec<T> velocity_;
};

// Adam (Kingma & Ba 2015) with bias correction, and optionally decoupled weight decay (AdamW,
// Loshchilov & Hutter 2019): p <- p - lr (wd p + m_hat / (sqrt(v_hat) + eps)), every parameter
// decayed (biases too, as PyTorch's AdamW over model.parameters()). wd = 0 is plain Adam, bit for bit.
template <class T>
class Adam : public Optimizer<T> {
 public:
  Adam(std::size_t n, T beta1 = T(0.9), T beta2 = T(0.999), T eps = T(1e-8), T weight_decay = T(0))
      : beta1_(beta1), beta2_(beta2), eps_(eps), wd_(weight_decay), m_(xt::zeros<T>({n})), v_(xt::zeros<T>({n})) {}
  void Step(ParamStore<T>& store, T lr) override {
    ++this->steps;
    const double t = static_cast<double>(this->steps);
    const T c1 = static_cast<T>(1.0 / (1.0 - std::pow(static_cast<double>(beta1_), t)));
    const T c2 = static_cast<T>(1.0 / (1.0 - std::pow(static_cast<double>(beta2_), t)));
    // Locals and __restrict let the compiler vectorise the loop (members could alias the buffers).
    T* __restrict p = store.values().data();
    const T* __restrict g = store.grads().data();
    T* __restrict m = m_.data();
    T* __restrict v = v_.data();
    const T b1 = beta1_, b2 = beta2_, eps = eps_, wd = wd_;
    const std::size_t n = store.size();
    if (wd == T(0)) {  // its own loop: plain Adam's expression, so its rounding is unchanged
      for (std::size_t i = 0; i < n; ++i) {
        m[i] = b1 * m[i] + (T(1) - b1) * g[i];
        v[i] = b2 * v[i] + (T(1) - b2) * g[i] * g[i];
        p[i] -= lr * (m[i] * c1) / (std::sqrt(v[i] * c2) + eps);
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        m[i] = b1 * m[i] + (T(1) - b1) * g[i];
        v[i] = b2 * v[i] + (T(1) - b2) * g[i] * g[i];
        p[i] -= lr * (wd * p[i] + (m[i] * c1) / (std::sqrt(v[i] * c2) + eps));
      }
    }
  }
  std::vector<std::pair<std::string, Vec<T>*>> StateBuffers() override { return {{"adam_m", &m_}, {"adam_v", &v_}}; }

 private:
  T beta1_, beta2_, eps_, wd_;
  Vec<T> m_, v_;
};

// The registered optimizers of --optimizer (optimizers.cpp): a factory for the training's float
// parameters, n of them.
struct OptimizerKind : KindInfo {
  std::function<std::unique_ptr<Optimizer<float>>(const Settings&, std::size_t n)> make;
};
const Registry<OptimizerKind>& Optimizers();

}  // namespace glimpse
