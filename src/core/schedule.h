// Learning-rate schedules: lr as a function of the update count; the registered kinds of --schedule.
#pragma once

#include <cstdint>
#include <functional>

#include "src/core/registry.h"

namespace glimpse {

struct ScheduleKind : KindInfo {
  // The learning rate at update `step` of `total`, from the configured lr0.
  std::function<double(double lr0, std::int64_t step, std::int64_t total)> rate;
};

// constant: lr0 at every step. linear: lr0 * (1 - step / total_steps), reaching 0 at total_steps.
// cosine, warmup-linear and onecycle: the shapes their help gives, as functions of step / total.
const Registry<ScheduleKind>& Schedules();

}  // namespace glimpse
