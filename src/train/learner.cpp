#include "src/train/learner.h"

#include <algorithm>
#include <cmath>

#include "envs/tasks.h"

namespace glimpse {

EstimatorConfig EstimatorConfigFor(const ExperimentConfig& cfg) {
  EstimatorConfig ec;
  ec.baseline = cfg.baseline;
  ec.rl_weight = cfg.rl_weight;
  ec.entropy = cfg.entropy;
  ec.reward_norm = cfg.reward_norm;
  ec.samples = cfg.samples;
  return ec;
}

void AddProbabilities(const float* z, int classes, double* avg) {
  constexpr int kMaxClasses = 64;
  CheckRange(classes, 1, kMaxClasses, "classes");
  double p[kMaxClasses];
  const float mx = *std::max_element(z, z + classes);
  double s = 0;
  for (int c = 0; c < classes; ++c) s += (p[c] = std::exp(static_cast<double>(z[c] - mx)));
  for (int c = 0; c < classes; ++c) avg[c] += p[c] / s;
}

const Registry<LearnerKind>& Learners() {
  static const Registry<LearnerKind> registry("learner", {
      ImageLearnerKind(),
      QueryLearnerKind(),
  });
  return registry;
}

std::unique_ptr<Learner> MakeLearner(const ExperimentConfig& cfg) {
  return Learners().Get(Tasks().Get(cfg.env).learner).make(cfg);
}

}  // namespace glimpse
