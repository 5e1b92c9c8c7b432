#include "src/core/schedule.h"

namespace glimpse {
namespace {

ScheduleKind ConstantSchedule() {
  ScheduleKind k;
  k.name = "constant";
  k.help = "lr at every step";
  k.rate = [](double lr0, std::int64_t, std::int64_t) { return lr0; };
  return k;
}

ScheduleKind LinearSchedule() {
  ScheduleKind k;
  k.name = "linear";
  k.help = "decay to 0 at the last step";
  k.rate = [](double lr0, std::int64_t step, std::int64_t total) {
    if (total <= 0) return lr0;
    const double frac = static_cast<double>(step) / static_cast<double>(total);
    return frac >= 1.0 ? 0.0 : lr0 * (1.0 - frac);
  };
  return k;
}

}  // namespace

const Registry<ScheduleKind>& Schedules() {
  static const Registry<ScheduleKind> registry("schedule", {
      ConstantSchedule(),
      LinearSchedule(),
  });
  return registry;
}

}  // namespace glimpse
