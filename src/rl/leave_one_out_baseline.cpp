// b_{t,n} = mean of G_t over the other M - 1 samples of the same image (Kool et al. 2019); rows
// n = i M + m hold sample m of image i. Needs --samples of at least 2.
#include "src/rl/baseline.h"

namespace glimpse {
namespace {

class LeaveOneOutBaseline : public Baseline {
 public:
  void Begin(const std::vector<double>& returns, int rows, int samples, const std::vector<double>&,
             const BaselineState&) override {
    const std::size_t TN = returns.size(), N = static_cast<std::size_t>(rows), M = static_cast<std::size_t>(samples);
    value_.resize(TN);
    for (std::size_t i = 0; i < TN; ++i) {
      const std::size_t first = i - (i % N) % M;  // sample 0 of the same image at the same step
      double s = 0;
      for (std::size_t m = 0; m < M; ++m) s += returns[first + m];
      value_[i] = (s - returns[i]) / static_cast<double>(M - 1);
    }
  }
  double Value(std::size_t i, double) const override { return value_[i]; }

 private:
  std::vector<double> value_;  // (T N)
};

}  // namespace

BaselineKind LeaveOneOutBaselineKind() {
  BaselineKind k;
  k.name = "loo";
  k.help = "leave-one-out over --samples episodes of each image";
  k.validate = [](const Settings&, const SharedFacts& f) {
    Check(f.samples >= 2, "option --baseline loo needs --samples of at least 2 ",
          "(the baseline of each sample is the mean reward of the others), found --samples ", f.samples);
  };
  k.make = [](int samples) {
    Check(samples >= 2, "the leave-one-out baseline needs --samples of at least 2, found ", samples);
    return std::make_unique<LeaveOneOutBaseline>();
  };
  return k;
}

}  // namespace glimpse
