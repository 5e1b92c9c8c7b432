// What a Trainer trains: a model together with its task, behind one small interface, so the
// training loop, logging, checkpoints, resume and divergence handling (trainer.h) serve every model.
//   ImageLearner (image_learner.h): the attention models on the RAM image tasks.
//   QueryLearner (query_learner.h): the query-conditioned item attention on strip5.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "envs/task.h"
#include "src/core/params.h"
#include "src/core/registry.h"
#include "src/rl/estimator.h"
#include "src/train/config.h"
#include "src/train/run_file.h"

namespace glimpse {

struct EvalResult {
  double error = 0;  // fraction of samples answered wrongly
  int images = 0;
  int samples = 1;   // 1: the policy's mode; M > 1: answer probabilities averaged over M sampled episodes
  std::map<std::string, double> extra;  // further metrics of the learner (logged as series columns)
};

// Seconds spent in each phase of training steps (bench --profile). The sensor's time is part of the
// forward pass's.
struct Profile {
  double task = 0, sensor = 0, forward = 0, loss = 0, backward = 0, optimizer = 0;
};

// Seconds on the steady clock.
inline double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Adds the time since the last lap to one phase of *profile; does nothing when profile is null.
class PhaseTimer {
 public:
  explicit PhaseTimer(Profile* profile) : profile_(profile), t_(profile ? SteadySeconds() : 0) {}
  void Lap(double Profile::*phase) {
    if (!profile_) return;
    const double now = SteadySeconds();
    profile_->*phase += now - t_;
    t_ = now;
  }

 private:
  Profile* profile_;
  double t_;
};

// The REINFORCE estimator options of a configuration (baseline, weights, samples).
EstimatorConfig EstimatorConfigFor(const ExperimentConfig& cfg);

// avg (C) += softmax(logits (C)): evaluation averages the answer probabilities of M episodes.
void AddProbabilities(const float* logits, int classes, double* avg);

class Learner {
 public:
  virtual ~Learner() = default;
  virtual ParamStore<float>& store() = 0;
  virtual int size(Split split) const = 0;  // samples in a split
  // Forward pass, loss and backward pass on `images` samples of the training split (each repeated
  // cfg.samples times as consecutive rows); zeroes and then fills store().grads(). rng draws the
  // hard-attention choices. Adds phase times to *profile when profile is not null.
  virtual LossReport TrainBatch(const std::int64_t* indices, int images, std::int64_t epoch, Rng& rng,
                                Profile* profile) = 0;
  // Error on the first max_images samples of split; M = samples (fresh "eval" stream each call).
  virtual EvalResult Evaluate(Split split, int samples, int max_images) = 0;
  // Examples logged at each evaluation for plotting (trajectories, attention weights): Setup writes
  // the fixed inputs when a run is created, Log appends one entry, Logged counts them, and Truncate
  // drops entries after a checkpoint's count.
  virtual void SetupExamples(RunFile& file) = 0;
  virtual void LogExamples(RunFile& file, std::int64_t epoch) = 0;
  virtual std::size_t ExamplesLogged(const RunFile& file) const = 0;
  virtual void TruncateExamples(RunFile& file, std::size_t count) = 0;
  // Parameter tensors that receive the REINFORCE gradient (the gradient-variance diagnostic); empty
  // without a hard policy.
  virtual std::vector<std::string> PolicyParams() const = 0;
  virtual Estimator<float>& estimator() = 0;
  virtual bool hard() const = 0;  // a hard-attention policy (evaluation takes its mode)
  virtual std::string task_name() const = 0;
  // Model replicas working on shares of each batch in parallel (1: none). With more than one,
  // each matrix product runs on one BLAS thread (the caller sets that).
  virtual int shards() const { return 1; }
};

// The registered learners (learners.cpp); a task names the one that trains on it (TaskKind::learner).
struct LearnerKind : KindInfo {
  std::function<std::unique_ptr<Learner>(const ExperimentConfig&)> make;
};
const Registry<LearnerKind>& Learners();
LearnerKind ImageLearnerKind();  // image_learner.cpp
LearnerKind QueryLearnerKind();  // query_learner.cpp

// The learner of a configuration: the one its task names.
std::unique_ptr<Learner> MakeLearner(const ExperimentConfig& cfg);

}  // namespace glimpse
