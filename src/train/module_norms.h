// Gradient norms per module, for --grad-norms: is the gradient that reaches the attention's read
// parameters small against the classifier's? A module is the first part of a parameter's name
// ("location" of "location.fc.W": the policy's mean, or a differentiable read's parameters; "action":
// the classifier; "glimpse", "core", "baseline", "context", ...). The trainer adds each step's norms
// (before clipping) and logs their means over a logging interval as /train/grad_norm_MODULE.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "src/core/params.h"
#include "src/nn/vmath.h"

namespace glimpse {

class ModuleNorms {
 public:
  explicit ModuleNorms(const std::vector<ParamInfo>& info) {
    for (const ParamInfo& p : info) {
      const std::string module = p.name.substr(0, p.name.find('.'));
      std::size_t m = 0;
      while (m < names_.size() && names_[m] != module) ++m;
      if (m == names_.size()) names_.push_back(module);
      spans_.push_back({p.offset, p.size, m});
    }
    squares_.assign(names_.size(), 0.0);
    sums_.assign(names_.size(), 0.0);
  }

  const std::vector<std::string>& names() const { return names_; }

  // grads: the store's flat gradient. Adds each module's norm to the interval's sums: a pass of its
  // own, so the training step (its clipping norm) is the same with and without. No allocation.
  void Add(const float* grads) {
    std::fill(squares_.begin(), squares_.end(), 0.0);
    for (const Span& s : spans_) squares_[s.module] += SumOfSquares(grads + s.offset, s.size);
    for (std::size_t m = 0; m < names_.size(); ++m) sums_[m] += std::sqrt(squares_[m]);
  }

  // The mean norm of module m over the n steps added since the last Reset.
  double Mean(std::size_t m, double n) const { return sums_[m] / n; }
  void Reset() { std::fill(sums_.begin(), sums_.end(), 0.0); }

 private:
  struct Span {
    std::size_t offset, size, module;
  };
  std::vector<std::string> names_;
  std::vector<Span> spans_;
  std::vector<double> squares_, sums_;
};

}  // namespace glimpse
