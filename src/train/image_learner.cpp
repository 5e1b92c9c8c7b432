#include "src/train/image_learner.h"

#include <algorithm>
#include <cmath>

#include "src/attention/draw_read.h"
#include "src/attention/retina.h"
#include "src/attention/soft_attention.h"
#include "src/attention/spatial_transformer.h"
#include "src/rl/categorical_policy.h"
#include "src/rl/gaussian_policy.h"

namespace glimpse {
namespace {

// The sensor of --attention: the retina for the hard policies, else the differentiable read.
std::unique_ptr<Sensor<float>> MakeSensor(const ExperimentConfig& c) {
  if (c.attention == "soft")
    return std::make_unique<SoftAttention<float>>(c.grid, c.patch, c.attention_dim, ParseScore(c.score), c.soft_gate);
  if (c.attention == "draw") {
    const int canvas = TaskByName(c.env).canvas;
    const double sigma = c.draw_sigma > 0 ? c.draw_sigma : DrawRead<float>::SpanningStride(c.patch, canvas, canvas) / 2;
    return std::make_unique<DrawRead<float>>(c.patch, sigma);
  }
  if (c.attention == "stn")
    return std::make_unique<SpatialTransformer<float>>(
        c.patch, c.scales,
        c.stn_params == "scale" ? SpatialTransformer<float>::Mode::kScaleTranslation
                                : SpatialTransformer<float>::Mode::kAffine);
  return std::make_unique<Retina<float>>(c.patch, c.scales, c.unit_pixels);
}

// The location policy of a hard-attention --attention; null for differentiable sensors.
std::unique_ptr<LocationPolicy<float>> MakePolicy(const ExperimentConfig& c) {
  if (c.attention == "categorical") return std::make_unique<CategoricalPolicy<float>>(c.grid);
  if (c.attention == "gaussian") return std::make_unique<GaussianPolicy<float>>(c.std);
  return nullptr;
}

}  // namespace

ImageLearner::ImageLearner(const ExperimentConfig& cfg) : cfg_(cfg) {
  data_ = LoadDigitDataset(ResolveDataDir(cfg_));
  task_ = std::make_unique<ImageTask>(TaskByName(cfg_.env), data_, cfg_.seed);
  ModelSpec spec;
  spec.steps = cfg_.glimpses;
  spec.glimpse_hidden = cfg_.glimpse_hidden;
  spec.hidden = cfg_.hidden;
  spec.core = cfg_.core;
  spec.reinforce_into_core = cfg_.rl_into_core;
  const int shards = cfg_.parallel == "data" ? ResolvedThreads(cfg_) : 1;
  std::vector<std::unique_ptr<AttentionModel<float>>> replicas;
  for (int s = 0; s < shards; ++s)
    replicas.push_back(std::make_unique<AttentionModel<float>>(spec, MakeSensor(cfg_), MakePolicy(cfg_)));
  Rng init(cfg_.seed, "init");
  replicas[0]->Init(init);  // the others receive replica 0's parameters before each forward pass
  model_ = std::make_unique<ShardedModel<float>>(std::move(replicas));
  const int rows = cfg_.batch * cfg_.samples;
  train_ep_ = std::make_unique<Episode<float>>(*task_, model().sensor(), rows);
  eval_ep_ = std::make_unique<Episode<float>>(*task_, model().sensor(), cfg_.batch);
  eval_capacity_ = cfg_.batch;
  batch_idx_.resize(rows);
  reward_.resize(rows);
  estimator_ = std::make_unique<Estimator<float>>(EstimatorConfigFor(cfg_), model().policy());
}

void ImageLearner::StartEpisode(Episode<float>& ep, Split split, const std::int64_t* indices, int rows,
                                std::int64_t epoch) {
  // Each shard renders its own rows; the model prepares its sensor itself.
  model_->ForEachShard(rows, [&](int, int first, int last) { ep.Render(split, indices, first, last, epoch); });
  ep.Start(rows, /*prepare_sensor=*/false);
}

LossReport ImageLearner::TrainBatch(const std::int64_t* indices, int images, std::int64_t epoch, Rng& rng,
                                    Profile* profile) {
  const int M = cfg_.samples, N = images * M;
  for (int i = 0; i < images; ++i)
    for (int m = 0; m < M; ++m) batch_idx_[i * M + m] = indices[i];
  PhaseTimer timer(profile);
  model_->set_sensor_timer(profile ? &profile->sensor : nullptr);
  StartEpisode(*train_ep_, Split::kTrain, batch_idx_.data(), N, epoch);
  timer.Lap(&Profile::task);
  model_->Forward(train_ep_->images(), N, task_->height(), task_->width(), rollout_, LocationMode::kSample, &rng,
                  cfg_.semi_sampling);
  timer.Lap(&Profile::forward);
  train_ep_->Classify(rollout_.actions.data(), reward_.data());
  const LossReport rep = estimator_->Compute(rollout_, train_ep_->labels(), reward_.data());
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
  if (eval_ep_ == nullptr || B * M > eval_capacity_)
    eval_ep_ = std::make_unique<Episode<float>>(*task_, model().sensor(), B * M), eval_capacity_ = B * M;
  Rng eval_rng(cfg_.seed, "eval");
  std::vector<std::int64_t> idx(static_cast<std::size_t>(B) * M);
  std::vector<double> avg(C);
  int wrong = 0;
  for (int start = 0; start < res.images; start += B) {
    const int n = std::min(B, res.images - start);
    for (int i = 0; i < n; ++i)
      for (int m = 0; m < M; ++m) idx[i * M + m] = start + i;
    StartEpisode(*eval_ep_, split, idx.data(), n * M, 0);
    model_->Forward(eval_ep_->images(), n * M, task_->height(), task_->width(), eval_rollout_,
                    M == 1 ? LocationMode::kMean : LocationMode::kSample, &eval_rng);
    for (int i = 0; i < n; ++i) {
      std::fill(avg.begin(), avg.end(), 0.0);
      for (int m = 0; m < M; ++m) {  // average the class probabilities of the M episodes
        AddProbabilities(eval_rollout_.logits.data() + static_cast<std::ptrdiff_t>(i * M + m) * C, C, avg.data());
      }
      const int guess = static_cast<int>(std::max_element(avg.begin(), avg.end()) - avg.begin());
      wrong += guess != eval_ep_->labels()[i * M];
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
  const int K = std::min({cfg_.trajectories, task_->size(Split::kTest), eval_capacity_});
  if (K <= 0) return;
  std::vector<std::int64_t> idx(K);
  for (int i = 0; i < K; ++i) idx[i] = i;
  eval_ep_->Reset(Split::kTest, idx.data(), K, 0);
  model_->Forward(eval_ep_->images(), K, task_->height(), task_->width(), eval_rollout_, LocationMode::kMean,
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

}  // namespace glimpse
