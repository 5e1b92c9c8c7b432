// The attention models of the image tasks (every registered --attention, src/attention/attentions.h)
// as an Agent: AttentionModel<float>, with one replica per thread under --parallel data
// (ShardedModel, sharing the trainer's worker pool).
// Examples: the glimpse trajectories of the first cfg.trajectories test images, under /trajectories
// (image, label; per evaluation epoch, locations or read_params, prediction).
// DramAgent (dram_agent.h) is an ImageAgent with its own model spec, trace and answers.
#pragma once

#include "src/model/sharded_model.h"
#include "src/train/agent.h"

namespace glimpse {

// The model of a configuration on a task: --glimpses steps, the task's classes, the core and context.
ModelSpec ModelSpecFor(const ExperimentConfig& cfg, const Task& task);

class ImageAgent : public Agent {
 public:
  ImageAgent(const ExperimentConfig& cfg, const Task& task, WorkerPool& pool);
  // The model of cfg's attention with this spec (steps, classes, ...), its replicas on pool.
  ImageAgent(const ExperimentConfig& cfg, const Task& task, WorkerPool& pool, const ModelSpec& spec);

  ParamStore<float>& store() override { return model_->store(); }
  AgentStep Forward(const Batch& batch, const StepContext& ctx) override;
  void Backward() override { model_->Backward(rollout_); }
  PolicyView policy() const override { return {model().policy(), model().PolicyParams()}; }
  void SetupExamples(const Task& task, RunLogger& log) override;
  void LogExamples(const Task& task, RunLogger& log, std::int64_t epoch) override;
  const AttentionModel<float>& model() const { return model_->model(); }

 protected:
  // Runs the model on batch as ctx says into rollout_.
  void RunModel(const Batch& batch, const StepContext& ctx);
  // The answers of a rollout of the logged examples (the model's argmax; DRAM composes its own).
  virtual void Predict(const Rollout<float>& r, std::vector<std::int32_t>& answers) const {
    answers.assign(r.actions.begin(), r.actions.end());
  }

  ExperimentConfig cfg_;
  std::unique_ptr<ShardedModel<float>> model_;  // replicas: --threads with --parallel data
  Rollout<float> rollout_;

 private:
  // Renders the first K test images into examples_ (the logged trajectories' inputs).
  void RenderExamples(const Task& task, int K);

  Batch examples_;
};

}  // namespace glimpse
