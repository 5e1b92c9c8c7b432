// The attention models of the image tasks (every registered --attention: src/attention/attentions.h)
// as a Learner: AttentionModel<float> on a registered Task, its samples rendered into a Batch in
// parallel on the worker pool, with one model replica per thread under --parallel data (ShardedModel).
// Examples: the glimpse trajectories of the first cfg.trajectories test images, under /trajectories
// (image, label; per evaluation epoch, locations or read_params, prediction).
#pragma once

#include "envs/batch.h"
#include "envs/dataset.h"
#include "src/core/worker_pool.h"
#include "src/model/sharded_model.h"
#include "src/train/learner.h"

namespace glimpse {

class ImageLearner : public Learner {
 public:
  explicit ImageLearner(const ExperimentConfig& cfg);

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
  bool hard() const override { return model_->model().policy() != nullptr; }
  std::string task_name() const override { return cfg_.env; }
  AttentionModel<float>& model() { return model_->model(); }
  int shards() const override { return model_->shards(); }

 private:
  // Renders samples indices[0..rows) of split into b, in parallel on the worker pool.
  void Render(Batch& b, Split split, const std::int64_t* indices, int rows, std::int64_t epoch);

  ExperimentConfig cfg_;
  DigitDataset data_;
  std::unique_ptr<Task> task_;
  std::unique_ptr<WorkerPool> pool_;            // --threads - 1 workers under --parallel data
  std::unique_ptr<ShardedModel<float>> model_;  // replicas: --threads with --parallel data
  Batch train_batch_, eval_batch_;
  Rollout<float> rollout_, eval_rollout_;
  std::unique_ptr<Estimator<float>> estimator_;
  std::vector<std::int64_t> batch_idx_;
  std::vector<float> reward_;
};

}  // namespace glimpse
