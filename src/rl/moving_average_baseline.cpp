// b = exponential moving average of the batch's mean reward, b <- 0.9 b + 0.1 mean G_1 after
// each batch (the episode's return; the terminal reward R') (Show, Attend and Tell, Xu et al. 2015). Its state, the
// average, is checkpointed.
#include "src/rl/baseline.h"

namespace glimpse {
namespace {

class MovingAverageBaseline : public Baseline {
 public:
  static constexpr double kDecay = 0.9;
  double Value(std::size_t, double) const override { return average_; }
  void End(double mean_return) override { average_ = kDecay * average_ + (1 - kDecay) * mean_return; }
  // "baseline_average" is the name run files have always stored it under.
  std::map<std::string, double> State() const override { return {{"baseline_average", average_}}; }
  void SetState(const std::map<std::string, double>& s) override {
    const auto it = s.find("baseline_average");
    average_ = it == s.end() ? 0.0 : it->second;
  }

 private:
  double average_ = 0.0;
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
