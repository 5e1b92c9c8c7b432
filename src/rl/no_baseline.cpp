// b = 0: plain REINFORCE (Williams 1992).
#include "src/rl/baseline.h"

namespace glimpse {
namespace {

class NoBaseline : public Baseline {
 public:
  double Value(std::size_t, double) const override { return 0.0; }
};

}  // namespace

BaselineKind NoBaselineKind() {
  BaselineKind k;
  k.name = "none";
  k.help = "plain REINFORCE";
  k.make = [](int) { return std::make_unique<NoBaseline>(); };
  return k;
}

}  // namespace glimpse
