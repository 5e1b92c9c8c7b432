// Learning-rate schedules: lr as a function of the update count.
#pragma once

#include <cstdint>
#include <string>

#include "src/core/error.h"

namespace glimpse {

enum class ScheduleKind { kConstant, kLinear };

inline ScheduleKind ParseSchedule(const std::string& name) {
  if (name == "constant") return ScheduleKind::kConstant;
  if (name == "linear") return ScheduleKind::kLinear;
  Fail("unknown schedule '", name, "': expected constant or linear");
}

// constant: lr0 at every step. linear: lr0 * (1 - step / total_steps), reaching 0 at total_steps.
inline double LearningRate(ScheduleKind kind, double lr0, std::int64_t step, std::int64_t total) {
  if (kind == ScheduleKind::kConstant || total <= 0) return lr0;
  const double frac = static_cast<double>(step) / static_cast<double>(total);
  return frac >= 1.0 ? 0.0 : lr0 * (1.0 - frac);
}

}  // namespace glimpse
