#include "src/train/image_agent.h"

#include <algorithm>

#include "src/train/make_kinds.h"

namespace glimpse {

ModelSpec ModelSpecFor(const ExperimentConfig& cfg, const Task& task) {
  ModelSpec spec;
  spec.steps = cfg.glimpses;
  spec.glimpse_hidden = cfg.glimpse_hidden;
  spec.hidden = cfg.hidden;
  spec.core = cfg.core;
  spec.reinforce_into_core = cfg.rl_into_core;
  spec.context = cfg.context;
  spec.context_fade = cfg.context_fade;
  spec.step_logits = cfg.step_loss > 0;
  spec.classes = task.classes();
  return spec;
}

ImageAgent::ImageAgent(const ExperimentConfig& cfg, const Task& task, WorkerPool& pool)
    : ImageAgent(cfg, task, pool, ModelSpecFor(cfg, task)) {}

ImageAgent::ImageAgent(const ExperimentConfig& cfg, const Task& task, WorkerPool& pool, const ModelSpec& spec)
    : Agent("/trajectories", pool.workers() + 1), cfg_(cfg) {
  std::vector<std::unique_ptr<AttentionModel<float>>> replicas;
  for (int s = 0; s < shards(); ++s)
    replicas.push_back(MakeAttentionModel<float>(spec, cfg_, task.height(), task.width()));
  Rng init(cfg_.seed, "init");
  replicas[0]->Init(init);  // the others receive replica 0's parameters before each forward pass
  model_ = std::make_unique<ShardedModel<float>>(std::move(replicas), pool);
}

void ImageAgent::RunModel(const Batch& batch, const StepContext& ctx) {
  model_->SetInputs(ctx.inputs);
  model_->set_sensor_timer(ctx.sensor_seconds);
  model_->Forward(batch.images.data(), batch.rows, batch.height, batch.width, rollout_, ctx.mode, ctx.rng,
                  ctx.semi_sampling);
}

AgentStep ImageAgent::Forward(const Batch& batch, const StepContext& ctx) {
  RunModel(batch, ctx);
  return {&rollout_, rollout_.actions.data(), &rollout_};
}

void ImageAgent::RenderExamples(const Task& task, int K) {
  std::vector<std::int64_t> idx(K);
  for (int i = 0; i < K; ++i) idx[i] = i;
  examples_.Resize(K, task.height(), task.width());
  RenderRows(task, Split::kTest, idx.data(), 0, K, 0, examples_);
}

void ImageAgent::SetupExamples(const Task& task, RunLogger& log) {
  const int K = std::min(cfg_.trajectories, task.size(Split::kTest));
  if (K <= 0) return;
  RenderExamples(task, K);
  // The canvases are not stored: they are the first K test samples, which the task renders again from
  // the run's seed (glimpse.runs.trajectory_images), so only their labels are kept.
  log.Array("/trajectories/label", {static_cast<std::size_t>(K)}, examples_.labels.data());
}

void ImageAgent::LogExamples(const Task& task, RunLogger& log, std::int64_t epoch) {
  const int K = std::min({cfg_.trajectories, task.size(Split::kTest), cfg_.batch});
  if (K <= 0) return;
  RenderExamples(task, K);
  Rollout<float> r;
  Rng rng(cfg_.seed, "trajectories");  // used only by a policy without a mean (the uniform control)
  model_->Forward(examples_.images.data(), K, task.height(), task.width(), r, LocationMode::kMean, &rng);
  std::vector<std::int32_t> prediction;
  Predict(r, prediction);
  // (K, T, P) from (T K, P): locations (P = 2) for hard attention, read parameters otherwise.
  const int TT = r.steps, P = model().sensor().param_size();
  std::vector<float> locs(static_cast<std::size_t>(K) * TT * P);
  for (int t = 0; t < TT; ++t)
    for (int k = 0; k < K; ++k)
      for (int d = 0; d < P; ++d)
        locs[(static_cast<std::size_t>(k) * TT + t) * P + d] =
            r.read.data()[(static_cast<std::size_t>(t) * K + k) * P + d];
  log.Block("/trajectories/epoch", {}, &epoch);
  log.Block(model().policy() ? "/trajectories/locations" : "/trajectories/read_params",
            {static_cast<std::size_t>(K), static_cast<std::size_t>(TT), static_cast<std::size_t>(P)}, locs.data());
  log.Block("/trajectories/prediction", {static_cast<std::size_t>(K)}, prediction.data());
}

AgentKind ImageAgentKind() {
  AgentKind k;
  k.name = "image";
  k.help = "an attention model classifying the task's canvas";
  k.make = [](const ExperimentConfig& c, const Task& task, WorkerPool& pool) {
    return std::make_unique<ImageAgent>(c, task, pool);
  };
  return k;
}

}  // namespace glimpse
