// The registered baselines of --baseline: one line per kind.
#include "src/rl/baseline.h"

namespace glimpse {

// The kinds, each defined in its own file.
BaselineKind NoBaselineKind();             // no_baseline.cpp
BaselineKind LearnedBaselineKind();        // learned_baseline.cpp
BaselineKind MovingAverageBaselineKind();  // moving_average_baseline.cpp
BaselineKind LeaveOneOutBaselineKind();    // leave_one_out_baseline.cpp
BaselineKind SelfCriticalBaselineKind();   // self_critical_baseline.cpp

const Registry<BaselineKind>& Baselines() {
  static const Registry<BaselineKind> registry("baseline", {
                                                               NoBaselineKind(),
                                                               LearnedBaselineKind(),
                                                               MovingAverageBaselineKind(),
                                                               LeaveOneOutBaselineKind(),
                                                               SelfCriticalBaselineKind(),
                                                           });
  return registry;
}

}  // namespace glimpse
