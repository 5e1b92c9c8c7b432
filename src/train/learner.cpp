#include "src/train/learner.h"

#include "src/train/image_learner.h"
#include "src/train/query_learner.h"

namespace glimpse {

std::unique_ptr<Learner> MakeLearner(const ExperimentConfig& cfg) {
  if (cfg.env == "strip5") return std::make_unique<QueryLearner>(cfg);
  return std::make_unique<ImageLearner>(cfg);
}

}  // namespace glimpse
