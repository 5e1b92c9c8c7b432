#include "src/train/image_learner.h"

#include <algorithm>
#include <cmath>

#include "envs/tasks.h"

namespace glimpse {

ImageLearner::ImageLearner(const ExperimentConfig& cfg) : cfg_(cfg) {
  data_ = LoadDigitDataset(ResolveDataDir(cfg_));
  task_ = Tasks().Get(cfg_.env).make(data_, cfg_.seed);
  ModelSpec spec;
  spec.steps = cfg_.glimpses;
  spec.glimpse_hidden = cfg_.glimpse_hidden;
  spec.hidden = cfg_.hidden;
  spec.core = cfg_.core;
  spec.reinforce_into_core = cfg_.rl_into_core;
  const int shards = cfg_.parallel == "data" ? ResolvedThreads(cfg_) : 1;
  std::vector<std::unique_ptr<AttentionModel<float>>> replicas;
  for (int s = 0; s < shards; ++s)
    replicas.push_back(MakeAttentionModel<float>(spec, cfg_, task_->height(), task_->width()));
  Rng init(cfg_.seed, "init");
  replicas[0]->Init(init);  // the others receive replica 0's parameters before each forward pass
  pool_ = std::make_unique<WorkerPool>(shards - 1);
  model_ = std::make_unique<ShardedModel<float>>(std::move(replicas), *pool_);
  const int rows = cfg_.batch * cfg_.samples;
  train_batch_.Resize(rows, task_->height(), task_->width());
  eval_batch_.Resize(cfg_.batch, task_->height(), task_->width());
  batch_idx_.resize(rows);
  reward_.resize(rows);
  estimator_ = std::make_unique<Estimator<float>>(EstimatorConfigFor(cfg_), model().policy());
}

void ImageLearner::Render(Batch& b, Split split, const std::int64_t* indices, int rows, std::int64_t epoch) {
  b.Resize(rows, task_->height(), task_->width());
  const int S = std::max(1, std::min(pool_->workers() + 1, rows));
  pool_->Run(S, [&](int s) {
    RenderRows(*task_, split, indices, static_cast<int>(static_cast<long long>(rows) * s / S),
               static_cast<int>(static_cast<long long>(rows) * (s + 1) / S), epoch, b);
  });
}

LossReport ImageLearner::TrainBatch(const std::int64_t* indices, int images, std::int64_t epoch, Rng& rng,
                                    Profile* profile) {
  const int M = cfg_.samples, N = images * M;
  for (int i = 0; i < images; ++i)
    for (int m = 0; m < M; ++m) batch_idx_[i * M + m] = indices[i];
  PhaseTimer timer(profile);
  model_->set_sensor_timer(profile ? &profile->sensor : nullptr);
  Render(train_batch_, Split::kTrain, batch_idx_.data(), N, epoch);
  timer.Lap(&Profile::task);
  model_->Forward(train_batch_.images.data(), N, task_->height(), task_->width(), rollout_, LocationMode::kSample,
                  &rng, cfg_.semi_sampling);
  timer.Lap(&Profile::forward);
  for (int n = 0; n < N; ++n) reward_[n] = rollout_.actions[n] == train_batch_.labels[n] ? 1.0f : 0.0f;
  const LossReport rep = estimator_->Compute(rollout_, train_batch_.labels.data(), reward_.data(), rollout_);
  timer.Lap(&Profile::loss);
  model_->store().ZeroGrad();
  model_->Backward(rollout_);
  timer.Lap(&Profile::backward);
  return rep;
}

EvalResult ImageLearner::Evaluate(Split split, int samples, int max_images) {
  CheckRange(samples, 1, 1024, "evaluation samples");
  EvalResult res;
  res.samples = samples;
  res.images = std::min(max_images, task_->size(split));
  const int B = cfg_.batch, M = samples, C = model().spec().classes;
  Rng eval_rng(cfg_.seed, "eval");
  std::vector<std::int64_t> idx(static_cast<std::size_t>(B) * M);
  std::vector<double> avg(C);
  int wrong = 0;
  for (int start = 0; start < res.images; start += B) {
    const int n = std::min(B, res.images - start);
    for (int i = 0; i < n; ++i)
      for (int m = 0; m < M; ++m) idx[i * M + m] = start + i;
    Render(eval_batch_, split, idx.data(), n * M, 0);
    model_->Forward(eval_batch_.images.data(), n * M, task_->height(), task_->width(), eval_rollout_,
                    M == 1 ? LocationMode::kMean : LocationMode::kSample, &eval_rng);
    for (int i = 0; i < n; ++i) {
      std::fill(avg.begin(), avg.end(), 0.0);
      for (int m = 0; m < M; ++m) {  // average the class probabilities of the M episodes
        AddProbabilities(eval_rollout_.logits.data() + static_cast<std::ptrdiff_t>(i * M + m) * C, C, avg.data());
      }
      const int guess = static_cast<int>(std::max_element(avg.begin(), avg.end()) - avg.begin());
      wrong += guess != eval_batch_.labels[i * M];
    }
  }
  res.error = static_cast<double>(wrong) / res.images;
  return res;
}

void ImageLearner::SetupExamples(RunFile& file) {
  const int K = std::min(cfg_.trajectories, task_->size(Split::kTest));
  if (K <= 0) return;
  file.CreateGroup("/trajectories");
  std::vector<float> images(static_cast<std::size_t>(K) * task_->pixels());
  std::vector<std::int32_t> labels(K);
  for (int i = 0; i < K; ++i)
    labels[i] = task_->Render(Split::kTest, i, 0, images.data() + static_cast<std::size_t>(i) * task_->pixels()).label;
  file.WriteArray<float>("/trajectories/image", {static_cast<std::size_t>(K), static_cast<std::size_t>(task_->height()),
                         static_cast<std::size_t>(task_->width())}, images.data());
  file.WriteArray<std::int32_t>("/trajectories/label", {static_cast<std::size_t>(K)}, labels.data());
}

void ImageLearner::LogExamples(RunFile& file, std::int64_t epoch) {
  const int K = std::min({cfg_.trajectories, task_->size(Split::kTest), cfg_.batch});
  if (K <= 0) return;
  std::vector<std::int64_t> idx(K);
  for (int i = 0; i < K; ++i) idx[i] = i;
  Render(eval_batch_, Split::kTest, idx.data(), K, 0);
  model_->Forward(eval_batch_.images.data(), K, task_->height(), task_->width(), eval_rollout_, LocationMode::kMean,
                  nullptr);
  // (K, T, P) from (T K, P): locations (P = 2) for hard attention, read parameters otherwise.
  const int TT = cfg_.glimpses, P = model().sensor().param_size();
  std::vector<float> locs(static_cast<std::size_t>(K) * TT * P);
  for (int t = 0; t < TT; ++t)
    for (int k = 0; k < K; ++k)
      for (int d = 0; d < P; ++d)
        locs[(static_cast<std::size_t>(k) * TT + t) * P + d] =
            eval_rollout_.read.data()[(static_cast<std::size_t>(t) * K + k) * P + d];
  file.AppendBlock<std::int64_t>("/trajectories/epoch", {}, &epoch);
  file.AppendBlock<float>(hard() ? "/trajectories/locations" : "/trajectories/read_params",
                          {static_cast<std::size_t>(K), static_cast<std::size_t>(TT), static_cast<std::size_t>(P)},
                          locs.data());
  file.AppendBlock<std::int32_t>("/trajectories/prediction", {static_cast<std::size_t>(K)},
                                 eval_rollout_.actions.data());
}

std::size_t ImageLearner::ExamplesLogged(const RunFile& file) const {
  return file.Exists("/trajectories/epoch") ? file.ReadArray<std::int64_t>("/trajectories/epoch").size() : 0;
}

void ImageLearner::TruncateExamples(RunFile& file, std::size_t count) {
  file.TruncateBlocks<std::int64_t>("/trajectories/epoch", count);
  file.TruncateBlocks<float>("/trajectories/locations", count);
  file.TruncateBlocks<float>("/trajectories/read_params", count);
  file.TruncateBlocks<std::int32_t>("/trajectories/prediction", count);
}

std::vector<std::string> ImageLearner::PolicyParams() const {
  if (!model_->model().policy()) return {};
  return {"location.fc.W", "location.fc.b"};
}

LearnerKind ImageLearnerKind() {
  LearnerKind k;
  k.name = "image";
  k.help = "an attention model classifying the task's canvas";
  k.make = [](const ExperimentConfig& c) { return std::make_unique<ImageLearner>(c); };
  return k;
}

}  // namespace glimpse
