#include "src/train/trainer.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <thread>

#include "src/attention/draw_read.h"
#include "src/attention/retina.h"
#include "src/attention/soft_attention.h"
#include "src/attention/spatial_transformer.h"
#include "src/rl/categorical_policy.h"
#include "src/rl/gaussian_policy.h"
#include "src/core/blas.h"
#include "src/core/schedule.h"
#include "src/core/version.h"
#include "src/nn/vmath.h"
#include "src/train/checkpoint.h"

namespace glimpse {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string UtcNow() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string Duration(double s) {
  std::ostringstream os;
  const long total = static_cast<long>(s + 0.5);
  if (total >= 3600) os << total / 3600 << "h" << std::setw(2) << std::setfill('0') << (total % 3600) / 60 << "m";
  else if (total >= 60) os << total / 60 << "m" << std::setw(2) << std::setfill('0') << total % 60 << "s";
  else os << total << "s";
  return os.str();
}

// Resident memory of this process in MB (VmRSS from /proc/self/status; 0 where unavailable).
double ResidentMb() {
  std::ifstream f("/proc/self/status");
  std::string key;
  double kb = 0;
  while (f >> key) {
    if (key == "VmRSS:") {
      f >> kb;
      break;
    }
    f.ignore(1 << 20, '\n');
  }
  return kb / 1024.0;
}


// The sensor of --attention: the retina for the hard policies, else the differentiable read.
std::unique_ptr<Sensor<float>> MakeSensor(const ExperimentConfig& c) {
  if (c.attention == "soft") {
    using S = SoftAttention<float>;
    const S::Score score = c.score == "dot" ? S::Score::kDot : c.score == "scaled-dot" ? S::Score::kScaledDot
                                                                                        : S::Score::kAdditive;
    return std::make_unique<S>(c.grid, c.patch, c.attention_dim, score, c.soft_gate);
  }
  if (c.attention == "draw") return std::make_unique<DrawRead<float>>(c.patch);
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

Trainer::Trainer(const ExperimentConfig& cfg, RunFile* file, bool resume)
    : cfg_(cfg), file_(file), data_rng_(cfg.seed, "data"), policy_rng_(cfg.seed, "policy") {
  Validate(cfg_);
  const int threads = cfg_.threads > 0 ? cfg_.threads
                                       : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  SetBlasThreads(threads);
  data_ = LoadDigitDataset(ResolveDataDir(cfg_));
  task_ = std::make_unique<ImageTask>(TaskByName(cfg_.env), data_, cfg_.seed);
  ModelSpec spec;
  spec.steps = cfg_.glimpses;
  spec.glimpse_hidden = cfg_.glimpse_hidden;
  spec.hidden = cfg_.hidden;
  spec.core = cfg_.core;
  model_ = std::make_unique<AttentionModel<float>>(spec, MakeSensor(cfg_), MakePolicy(cfg_));
  Rng init(cfg_.seed, "init");
  model_->Init(init);
  opt_ = MakeOptimizer<float>(cfg_.optimizer, model_->store().size(), static_cast<float>(cfg_.momentum));
  const int rows = cfg_.batch * cfg_.samples;
  train_ep_ = std::make_unique<Episode<float>>(*task_, model_->sensor(), rows);
  eval_ep_ = std::make_unique<Episode<float>>(*task_, model_->sensor(), cfg_.batch);
  eval_capacity_ = cfg_.batch;
  batch_idx_.resize(rows);
  reward_.resize(rows);
  EstimatorConfig ec;
  ec.baseline = ParseBaseline(cfg_.baseline);
  ec.rl_weight = cfg_.rl_weight;
  ec.entropy = cfg_.entropy;
  ec.reward_norm = cfg_.reward_norm;
  ec.samples = cfg_.samples;
  estimator_ = std::make_unique<Estimator<float>>(ec, model_->policy());
  perm_.resize(task_->size(Split::kTrain));

  if (file_ == nullptr) return;
  if (resume) {
    if (HasCheckpoint(*file_)) {
      LoadCheckpointNow();
    } else {  // stopped before its first checkpoint: start over, keeping the stored configuration
      std::cout << "'" << file_->path() << "' has no checkpoint yet: starting it over\n";
      TruncateSeries({});
    }
    return;
  }
  for (const auto& [k, v] : ToKeyValues(cfg_)) file_->SetAttribute("/", k, v);
  file_->SetAttribute("/", "glimpse_version", Version());
  file_->SetAttribute("/", "source_commit", SourceCommit());
  file_->SetAttribute("/", "created_utc", UtcNow());
  file_->SetAttribute("/", "parameters", std::to_string(model_->store().size()));
  // The fixed test images whose glimpses are logged each evaluation.
  const int K = std::min(cfg_.trajectories, task_->size(Split::kTest));
  if (K > 0) {
    file_->CreateGroup("/trajectories");
    std::vector<float> images(static_cast<std::size_t>(K) * task_->pixels());
    std::vector<std::int32_t> labels(K);
    for (int i = 0; i < K; ++i)
      labels[i] = task_->Render(Split::kTest, i, 0, images.data() + static_cast<std::size_t>(i) * task_->pixels()).label;
    file_->WriteArray<float>("/trajectories/image", {static_cast<std::size_t>(K),
                             static_cast<std::size_t>(task_->height()), static_cast<std::size_t>(task_->width())},
                             images.data());
    file_->WriteArray<std::int32_t>("/trajectories/label", {static_cast<std::size_t>(K)}, labels.data());
  }
  SaveCheckpointNow();  // epoch 0: a run killed in its first epoch resumes, a NaN can roll back
  Sync(true);
}

Trainer::~Trainer() = default;

int Trainer::StepsPerEpoch() const {
  const std::int64_t n = cfg_.train_images > 0 ? std::min<std::int64_t>(cfg_.train_images, task_->size(Split::kTrain))
                                               : task_->size(Split::kTrain);
  return static_cast<int>(std::max<std::int64_t>(1, n / cfg_.batch));
}

void Trainer::TrainStep(const std::int64_t* indices, int images, std::int64_t epoch) {
  const int M = cfg_.samples, N = images * M;
  for (int i = 0; i < images; ++i)
    for (int m = 0; m < M; ++m) batch_idx_[i * M + m] = indices[i];
  double t = profile_ ? Now() : 0;
  auto lap = [&](double Profile::*phase) {  // adds the time since the last lap to a phase when profiling
    if (!profile_) return;
    const double now = Now();
    profile_->*phase += now - t;
    t = now;
  };
  train_ep_->Reset(Split::kTrain, batch_idx_.data(), N, epoch);
  lap(&Profile::task);
  model_->Forward(train_ep_->images(), N, task_->height(), task_->width(), rollout_, LocationMode::kSample,
                  &policy_rng_, cfg_.semi_sampling);
  lap(&Profile::forward);
  train_ep_->Classify(rollout_.actions.data(), reward_.data());
  const LossReport rep = estimator_->Compute(rollout_, train_ep_->labels(), reward_.data());
  lap(&Profile::loss);
  auto& store = model_->store();
  store.ZeroGrad();
  model_->Backward(rollout_);
  lap(&Profile::backward);
  // One pass gives the gradient norm and, being non-finite when a gradient is, the NaN check (a
  // gradient above ~1e19, whose square overflows float, also counts as divergence).
  const double norm = std::sqrt(SumOfSquares(store.grads().data(), store.size()));
  if (!std::isfinite(rep.total) || !std::isfinite(norm)) {
    const std::string what = std::isfinite(rep.total) ? "a gradient" : "the loss";
    throw Diverged(Format("training diverged: ", what, " is NaN or inf at step ", step_ + 1, " (epoch ",
                          epoch + 1, ")"));
  }
  // Global gradient-norm clipping.
  if (cfg_.clip > 0 && norm > cfg_.clip) {
    const float k = static_cast<float>(cfg_.clip / norm);
    for (float& g : store.grads()) g *= k;
  }
  sum_grad_norm_ += norm;
  const std::int64_t total = static_cast<std::int64_t>(cfg_.epochs) * StepsPerEpoch();
  const double lr = LearningRate(ParseSchedule(cfg_.schedule), cfg_.lr, step_, total);
  opt_->Step(store, static_cast<float>(lr * lr_scale_));
  lap(&Profile::optimizer);
  ++step_;
  images_seen_ += images;
  sum_.total += rep.total, sum_.action += rep.action, sum_.reinforce += rep.reinforce;
  sum_.baseline += rep.baseline, sum_.reward += rep.reward, sum_.entropy += rep.entropy;
  ++sum_n_;
}

double Trainer::Bench(int steps, Profile* profile) {
  const int B = std::min(cfg_.batch, task_->size(Split::kTrain));
  for (std::size_t i = 0; i < perm_.size(); ++i) perm_[i] = static_cast<std::int64_t>(i);
  const std::size_t per_epoch = perm_.size() / B;
  TrainStep(perm_.data(), B, 0);  // warm-up: sizes every buffer
  if (profile) {
    *profile = Profile{};
    profile_ = profile;
    model_->set_sensor_timer(&profile->sensor);
  }
  const double t0 = Now();
  for (int s = 0; s < steps; ++s) TrainStep(perm_.data() + (s % per_epoch) * B, B, 0);
  const double rate = static_cast<double>(steps) * B / (Now() - t0);
  profile_ = nullptr;
  model_->set_sensor_timer(nullptr);
  return rate;
}

void Trainer::Run() {
  const int steps = StepsPerEpoch();
  const int B = std::min(cfg_.batch, task_->size(Split::kTrain));
  const std::int64_t start_step = step_;
  double t_start = Now(), t_log = t_start;
  std::cout << "training " << cfg_.env << ": " << cfg_.epochs << " epochs x " << steps << " steps of "
            << B << " images (x" << cfg_.samples << " samples), " << model_->store().size()
            << " parameters, from epoch " << epoch_ << "\n" << std::flush;
  while (epoch_ < cfg_.epochs) {
    for (std::size_t i = 0; i < perm_.size(); ++i) perm_[i] = static_cast<std::int64_t>(i);
    for (std::size_t i = perm_.size() - 1; i > 0; --i)
      std::swap(perm_[i], perm_[data_rng_.UniformInt(i + 1)]);
    try {
      for (int s = 0; s < steps; ++s) {
        TrainStep(perm_.data() + static_cast<std::size_t>(s) * B, B, epoch_);
        if (step_ % cfg_.log_every == 0 || s == steps - 1) {
          const double now = Now();
          wall_s_ += now - t_log;
          t_log = now;
          LogTrain(now - t_start, step_ - start_step);
        }
        if (cfg_.diag_every > 0 && step_ % cfg_.diag_every == 0) Diagnose();
        if (on_step) on_step(step_);
      }
    } catch (const Diverged& d) {
      HandleDivergence(d.what());  // rolls back to the last checkpoint, or throws Error
      continue;
    }
    ++epoch_;
    EndEpoch();
    wall_s_ += Now() - t_log;
    t_log = Now();
  }
}

void Trainer::HandleDivergence(const std::string& what) {
  const bool can_roll_back = cfg_.on_nan == "rollback" && rollbacks_ < cfg_.max_rollbacks && file_ != nullptr;
  if (!can_roll_back) {
    const std::string msg =
        Format(what, ". The run file keeps the last good checkpoint (", epoch_, " epochs); try a lower --lr, ",
               "--clip, or --on-nan rollback, then --resume.");
    if (file_) {
      file_->SetAttribute("/", "stopped_reason", msg);
      Sync(true);
    }
    Fail(msg);
  }
  // Back to the last checkpoint with half the learning rate; the reason goes into the run file.
  const double scale = lr_scale_ * 0.5;
  const int rollbacks = rollbacks_ + 1;
  LoadCheckpointNow();
  lr_scale_ = scale;
  rollbacks_ = rollbacks;
  sum_ = LossReport{};
  sum_n_ = 0;
  sum_grad_norm_ = 0;
  const std::string msg = Format(what, "; rolled back to the checkpoint of epoch ", epoch_,
                                 " with the learning rate scaled by ", lr_scale_);
  file_->SetAttribute("/", "rollback_" + std::to_string(rollbacks_), msg);
  file_->Commit();
  std::cout << msg << "\n" << std::flush;
}

void Trainer::LogTrain(double elapsed_s, std::int64_t session_steps) {
  if (sum_n_ == 0) return;
  const double n = sum_n_;
  const int steps = StepsPerEpoch();
  const double epoch_f = static_cast<double>(step_) / steps;
  const std::int64_t total = static_cast<std::int64_t>(cfg_.epochs) * steps;
  const double lr = LearningRate(ParseSchedule(cfg_.schedule), cfg_.lr, step_ - 1, total);
  if (file_) {
    file_->Append("/train", {{"step", static_cast<double>(step_)}, {"epoch", epoch_f},
                             {"images", static_cast<double>(images_seen_)}, {"loss", sum_.total / n},
                             {"loss_action", sum_.action / n}, {"loss_reinforce", sum_.reinforce / n},
                             {"loss_baseline", sum_.baseline / n}, {"reward", sum_.reward / n},
                             {"accuracy", sum_.reward / n}, {"entropy", sum_.entropy / n},
                             {"grad_norm", sum_grad_norm_ / n}, {"lr", lr * lr_scale_},
                             {"wall_s", wall_s_}});
    Sync(false);
  }
  std::cout << "epoch " << std::fixed << std::setprecision(2) << epoch_f << "/" << cfg_.epochs << " step " << step_
            << " | loss " << std::setprecision(3) << sum_.total / n << " (act " << sum_.action / n << " rl "
            << sum_.reinforce / n << " base " << sum_.baseline / n << ") | reward " << sum_.reward / n;
  if (last_val_error_ >= 0) std::cout << " | val_error " << std::setprecision(2) << 100 * last_val_error_ << "%";
  if (elapsed_s > 0 && session_steps > 0) {
    const double steps_per_s = session_steps / elapsed_s;
    std::cout << " | " << std::setprecision(0) << steps_per_s * cfg_.batch << " img/s | ETA "
              << Duration((total - step_) / steps_per_s);
  }
  std::cout << "\n" << std::flush;
  sum_ = LossReport{};
  sum_n_ = 0;
  sum_grad_norm_ = 0;
}

EvalResult Trainer::Evaluate(Split split, int samples, int max_images) {
  CheckRange(samples, 1, 1024, "evaluation samples");
  EvalResult res;
  res.samples = samples;
  res.images = std::min(max_images, task_->size(split));
  const int B = cfg_.batch, M = samples, C = model_->spec().classes;
  if (eval_ep_ == nullptr || B * M > eval_capacity_)
    eval_ep_ = std::make_unique<Episode<float>>(*task_, model_->sensor(), B * M), eval_capacity_ = B * M;
  Rng eval_rng(cfg_.seed, "eval");
  std::vector<std::int64_t> idx(static_cast<std::size_t>(B) * M);
  std::vector<double> avg(C), p(C);
  int wrong = 0;
  for (int start = 0; start < res.images; start += B) {
    const int n = std::min(B, res.images - start);
    for (int i = 0; i < n; ++i)
      for (int m = 0; m < M; ++m) idx[i * M + m] = start + i;
    eval_ep_->Reset(split, idx.data(), n * M, 0);
    model_->Forward(eval_ep_->images(), n * M, task_->height(), task_->width(), eval_rollout_,
                    M == 1 ? LocationMode::kMean : LocationMode::kSample, &eval_rng);
    for (int i = 0; i < n; ++i) {
      std::fill(avg.begin(), avg.end(), 0.0);
      for (int m = 0; m < M; ++m) {  // average the class probabilities of the M episodes
        const float* z = eval_rollout_.logits.data() + static_cast<std::ptrdiff_t>(i * M + m) * C;
        const float mx = *std::max_element(z, z + C);
        double s = 0;
        for (int c = 0; c < C; ++c) s += (p[c] = std::exp(static_cast<double>(z[c] - mx)));
        for (int c = 0; c < C; ++c) avg[c] += p[c] / s;
      }
      const int guess = static_cast<int>(std::max_element(avg.begin(), avg.end()) - avg.begin());
      wrong += guess != eval_ep_->labels()[i * M];
    }
  }
  res.error = static_cast<double>(wrong) / res.images;
  return res;
}

void Trainer::WriteTrajectories() {
  const int K = std::min({cfg_.trajectories, task_->size(Split::kTest), eval_capacity_});
  if (K <= 0 || file_ == nullptr) return;
  std::vector<std::int64_t> idx(K);
  for (int i = 0; i < K; ++i) idx[i] = i;
  eval_ep_->Reset(Split::kTest, idx.data(), K, 0);
  model_->Forward(eval_ep_->images(), K, task_->height(), task_->width(), eval_rollout_, LocationMode::kMean,
                  nullptr);
  // (K, T, P) from (T K, P): locations (P = 2) for hard attention, read parameters otherwise.
  const int TT = cfg_.glimpses, P = model_->sensor().param_size();
  std::vector<float> locs(static_cast<std::size_t>(K) * TT * P);
  for (int t = 0; t < TT; ++t)
    for (int k = 0; k < K; ++k)
      for (int d = 0; d < P; ++d)
        locs[(static_cast<std::size_t>(k) * TT + t) * P + d] =
            eval_rollout_.read.data()[(static_cast<std::size_t>(t) * K + k) * P + d];
  const std::int64_t e = epoch_;
  file_->AppendBlock<std::int64_t>("/trajectories/epoch", {}, &e);
  file_->AppendBlock<float>(model_->policy() ? "/trajectories/locations" : "/trajectories/read_params",
                            {static_cast<std::size_t>(K), static_cast<std::size_t>(TT), static_cast<std::size_t>(P)},
                            locs.data());
  file_->AppendBlock<std::int32_t>("/trajectories/prediction", {static_cast<std::size_t>(K)},
                                   eval_rollout_.actions.data());
}

void Trainer::EndEpoch() {
  const bool eval_now = epoch_ % cfg_.eval_every == 0 || epoch_ == cfg_.epochs;
  if (eval_now) {
    const double t0 = Now();
    const EvalResult val = Evaluate(Split::kVal, 1, cfg_.val_images);
    const EvalResult test = Evaluate(Split::kTest, 1, task_->size(Split::kTest));
    last_val_error_ = val.error;
    if (file_) {
      file_->Append("/eval", {{"step", static_cast<double>(step_)}, {"epoch", static_cast<double>(epoch_)},
                              {"val_error", val.error}, {"test_error", test.error}, {"rss_mb", ResidentMb()}});
      WriteTrajectories();
    }
    std::cout << "epoch " << epoch_ << "/" << cfg_.epochs << " done | val_error " << std::fixed
              << std::setprecision(2) << 100 * val.error << "% test_error " << 100 * test.error
              << (model_->policy() ? "% (policy mean)" : "% (deterministic reads)") << " | train " << Duration(wall_s_) << ", eval " << Duration(Now() - t0)
              << " | rss " << std::setprecision(0) << ResidentMb() << " MB";
    const double per_epoch = wall_s_ / std::max<std::int64_t>(1, epoch_);
    std::cout << " | ETA " << Duration(per_epoch * (cfg_.epochs - epoch_)) << "\n" << std::flush;
  }
  if (file_) {
    SaveCheckpointNow();
    Sync(true);
  }
}

void Trainer::Sync(bool force) {
  if (file_ == nullptr) return;
  const double now = Now();
  if (!force && now - last_sync_ < kSyncSeconds) return;
  file_->Commit();
  last_sync_ = now;
}

}  // namespace glimpse

