// The strip5 "find the digit" task (envs/strip5.h) with the query-conditioned item attention model
// (src/model/query_model.h) as a Learner. --attention soft trains by backpropagation; categorical
// draws one slot and trains the choice with the REINFORCE estimators (--baseline, --samples,
// --entropy, --reward-norm), the answer network with the cross-entropy, as RAM's hybrid loss does.
//
// Evaluation reports the answer error and, as the extra metric "peak", the fraction of strips that
// hold the query whose attention peak (argmax alpha) is on the query's slot.
// Examples, under /attention: the first cfg.trajectories test strips (strip (K, 28, 140), query,
// answer (K), labels (K, 5)) and, per evaluation, epoch, the weights of every query 0..9 over the
// slots, weights (K, 10, 5), and the answer to each, prediction (K, 10).
#pragma once

#include "envs/strip5.h"
#include "src/model/query_model.h"
#include "src/train/learner.h"

namespace glimpse {

class QueryLearner : public Learner {
 public:
  explicit QueryLearner(const ExperimentConfig& cfg);

  ParamStore<float>& store() override { return model_->store(); }
  int size(Split split) const override { return task_->size(split); }
  LossReport TrainBatch(const std::int64_t* indices, int images, std::int64_t epoch, Rng& rng,
                        Profile* profile) override;
  EvalResult Evaluate(Split split, int samples, int max_images) override;
  void SetupExamples(RunFile& file) override;
  void LogExamples(RunFile& file, std::int64_t epoch) override;
  std::size_t ExamplesLogged(const RunFile& file) const override;
  void TruncateExamples(RunFile& file, std::size_t count) override;
  std::vector<std::string> PolicyParams() const override;
  Estimator<float>& estimator() override { return *estimator_; }
  bool hard() const override { return model_->policy() != nullptr; }
  std::string task_name() const override { return "strip5"; }
  QueryModel<float>& model() { return *model_; }

 private:
  // Renders strips indices[0..n) of split, each repeated M times, into strips_, queries_, answers_.
  void Load(Split split, const std::int64_t* indices, int n, int M, std::int64_t epoch);

  ExperimentConfig cfg_;
  DigitDataset data_;
  std::unique_ptr<Strip5Task> task_;
  std::unique_ptr<QueryModel<float>> model_;
  std::unique_ptr<Estimator<float>> estimator_;
  QueryRollout<float> rollout_;
  std::vector<float> strips_, reward_;
  std::vector<std::int32_t> queries_, answers_;
};

}  // namespace glimpse
