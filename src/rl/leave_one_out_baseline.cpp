// b_n = mean of R' over the other M - 1 samples of the same image (Kool et al. 2019); rows
// n = i M + m hold sample m of image i. Needs --samples of at least 2.
#include "src/rl/baseline.h"

namespace glimpse {
namespace {

class LeaveOneOutBaseline : public Baseline {
 public:
  void Begin(const std::vector<double>& rewards, int samples) override {
    const int N = static_cast<int>(rewards.size()), M = samples;
    value_.resize(N);
    for (int n = 0; n < N; ++n) {
      const int first = n - n % M;
      double s = 0;
      for (int m = 0; m < M; ++m) s += rewards[first + m];
      value_[n] = (s - rewards[n]) / (M - 1);
    }
  }
  double Value(int n, double) const override { return value_[n]; }

 private:
  std::vector<double> value_;  // (N)
};

}  // namespace

BaselineKind LeaveOneOutBaselineKind() {
  BaselineKind k;
  k.name = "loo";
  k.help = "leave-one-out over --samples episodes of each image";
  k.validate = [](const ExperimentConfig& c) {
    Check(c.samples >= 2, "option --baseline loo needs --samples of at least 2 ",
          "(the baseline of each sample is the mean reward of the others), found --samples ", c.samples);
  };
  k.make = [](int samples) {
    Check(samples >= 2, "the leave-one-out baseline needs --samples of at least 2, found ", samples);
    return std::make_unique<LeaveOneOutBaseline>();
  };
  return k;
}

}  // namespace glimpse
