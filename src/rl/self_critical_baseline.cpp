// b_{t,n} = the return of the greedy episode of the same image: the policy's mean location at
// every step instead of a draw (self-critical sequence training, Rennie et al. 2017). It depends on
// the image and the parameters but not on the sampled episode, so the gradient stays unbiased; the
// trainer runs the greedy episode before the sampled one (one more forward pass per step).
#include "src/rl/baseline.h"

namespace glimpse {
namespace {

class SelfCriticalBaseline : public Baseline {
 public:
  void Begin(const std::vector<double>& returns, int, int, const std::vector<double>& greedy,
             const BaselineState&) override {
    Check(greedy.size() == returns.size(), "the self-critical baseline needs the greedy episode's returns");
    value_ = greedy;
  }
  double Value(std::size_t i, double) const override { return value_[i]; }
  bool greedy() const override { return true; }

 private:
  std::vector<double> value_;  // (T N)
};

}  // namespace

BaselineKind SelfCriticalBaselineKind() {
  BaselineKind k;
  k.name = "self-critical";
  k.help = "the reward of the greedy (policy-mean) episode of the same image (Rennie et al. 2017)";
  k.make = [](int) { return std::make_unique<SelfCriticalBaseline>(); };
  return k;
}

}  // namespace glimpse
