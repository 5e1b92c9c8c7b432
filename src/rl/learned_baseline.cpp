// b_{t,n} = W_b h_{t-1} + c, the model's baseline network, regressing the return G
// (Mnih et al. 2014: the reward R').
#include "src/rl/baseline.h"

namespace glimpse {
namespace {

class LearnedBaseline : public Baseline {
 public:
  double Value(std::size_t, double predicted) const override { return predicted; }
  bool learned() const override { return true; }
};

}  // namespace

BaselineKind LearnedBaselineKind() {
  BaselineKind k;
  k.name = "learned";
  k.help = "RAM: a linear regression of the reward on the core state";
  k.make = [](int) { return std::make_unique<LearnedBaseline>(); };
  return k;
}

}  // namespace glimpse
