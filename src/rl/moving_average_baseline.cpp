// b = exponential moving average of the batch's mean reward, b <- 0.9 b + 0.1 mean G_1 after
// each batch (the episode's return; the terminal reward R') (Show, Attend and Tell, Xu et al. 2015). Its state, the
// average, is checkpointed.
#include "src/rl/baseline.h"

namespace glimpse {
namespace {

class MovingAverageBaseline : public Baseline {
 public:
  static constexpr double kDecay = 0.9;
  // "baseline_average" is the name run files have always stored it under.
  static constexpr const char* kName = "baseline_average";
  void Begin(const std::vector<double>&, int, int, const std::vector<double>&, const BaselineState& state) override {
    const auto it = state.find(kName);
    average_ = it == state.end() ? 0.0 : it->second;
  }
  double Value(std::size_t, double) const override { return average_; }
  void End(double mean_return, BaselineState& state) const override {
    state[kName] = kDecay * average_ + (1 - kDecay) * mean_return;
  }
  BaselineState Start() const override { return {{kName, 0.0}}; }

 private:
  double average_ = 0.0;  // this batch's b, read from the state Begin was given
};

}  // namespace

BaselineKind MovingAverageBaselineKind() {
  BaselineKind k;
  k.name = "average";
  k.help = "moving average of the reward";
  k.make = [](int) { return std::make_unique<MovingAverageBaseline>(); };
  return k;
}

}  // namespace glimpse
