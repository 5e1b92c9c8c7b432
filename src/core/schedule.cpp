#include "src/core/schedule.h"

#include <algorithm>
#include <cmath>

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

// The fraction of the run done at update `step` of `total`, in [0, 1].
double Done(std::int64_t step, std::int64_t total) {
  return total <= 0 ? 0.0 : std::clamp(static_cast<double>(step) / static_cast<double>(total), 0.0, 1.0);
}

// From a to b along half a cosine, as t goes from 0 to 1.
double Cosine(double a, double b, double t) { return b + (a - b) * 0.5 * (1.0 + std::cos(M_PI * t)); }

ScheduleKind CosineSchedule() {
  ScheduleKind k;
  k.name = "cosine";
  k.help = "half a cosine from lr to 0 at the last step (Loshchilov and Hutter 2017, without restarts)";
  k.rate = [](double lr0, std::int64_t step, std::int64_t total) { return Cosine(lr0, 0.0, Done(step, total)); };
  return k;
}

ScheduleKind WarmupLinearSchedule() {
  ScheduleKind k;
  k.name = "warmup-linear";
  k.help = "linear from 0 to lr over the first 5% of the steps, then linear decay to 0 at the last step";
  k.rate = [](double lr0, std::int64_t step, std::int64_t total) {
    constexpr double kWarm = 0.05;
    const double f = Done(step, total);
    return f < kWarm ? lr0 * f / kWarm : lr0 * (1.0 - f) / (1.0 - kWarm);
  };
  return k;
}

ScheduleKind OneCycleSchedule() {
  ScheduleKind k;
  k.name = "onecycle";
  k.help =
      "one cycle (Smith and Topin 2019; the shape of PyTorch's OneCycleLR defaults): half a cosine from lr/25 up "
      "to lr over the first 30% of the steps, then down to lr/250000 at the last step";
  k.rate = [](double lr0, std::int64_t step, std::int64_t total) {
    constexpr double kUp = 0.3, kStart = 25, kEnd = 25 * 1e4;
    const double f = Done(step, total);
    return f < kUp ? Cosine(lr0 / kStart, lr0, f / kUp) : Cosine(lr0, lr0 / kEnd, (f - kUp) / (1 - kUp));
  };
  return k;
}

}  // namespace

const Registry<ScheduleKind>& Schedules() {
  static const Registry<ScheduleKind> registry("schedule", {
                                                               ConstantSchedule(),
                                                               LinearSchedule(),
                                                               CosineSchedule(),
                                                               WarmupLinearSchedule(),
                                                               OneCycleSchedule(),
                                                           });
  return registry;
}

}  // namespace glimpse
