#include "src/train/learner.h"

#include <algorithm>
#include <thread>

#include <algorithm>
#include <cmath>

#include "src/train/image_learner.h"
#include "src/train/query_learner.h"

namespace glimpse {

EstimatorConfig EstimatorConfigFor(const ExperimentConfig& cfg) {
  EstimatorConfig ec;
  ec.baseline = ParseBaseline(cfg.baseline);
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

int ResolvedThreads(const ExperimentConfig& cfg) {
  return cfg.threads > 0 ? cfg.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::unique_ptr<Learner> MakeLearner(const ExperimentConfig& cfg) {
  if (cfg.env == "strip5") return std::make_unique<QueryLearner>(cfg);
  return std::make_unique<ImageLearner>(cfg);
}

}  // namespace glimpse
