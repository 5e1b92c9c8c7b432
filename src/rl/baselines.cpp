// The registered baselines of --baseline: one line per kind.
#include "src/rl/baseline.h"

namespace glimpse {

const Registry<BaselineKind>& Baselines() {
  static const Registry<BaselineKind> registry("baseline", {
      NoBaselineKind(),
      LearnedBaselineKind(),
      MovingAverageBaselineKind(),
      LeaveOneOutBaselineKind(),
  });
  return registry;
}

}  // namespace glimpse
