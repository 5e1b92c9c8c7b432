#include "src/train/trainer.h"

#include <cmath>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <thread>

#include "envs/dataset.h"
#include "envs/tasks.h"
#include "envs/train_shift.h"
#include "src/core/blas.h"
#include "src/core/machine.h"
#include "src/core/schedule.h"
#include "src/core/version.h"
#include "src/nn/vmath.h"
#include "src/store/checkpoint.h"
#include "src/train/make_kinds.h"

namespace glimpse {
namespace {

std::string UtcNow() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
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

}  // namespace

Trainer::Trainer(const ExperimentConfig& cfg, RunFile* file, bool resume)
    : cfg_(cfg),
      denormals_(cfg.denormals == "flush"),
      file_(file),
      data_rng_(cfg.seed, "data"),
      policy_rng_(cfg.seed, "policy") {
  Validate(cfg_);
  logger_ =
      file_ ? std::unique_ptr<RunLogger>(std::make_unique<RunFileLogger>(*file_)) : std::make_unique<NullLogger>();
  const TaskKind& task_kind = Tasks().Get(cfg_.env);
  data_ = LoadDigitDataset(ResolveDataDir(cfg_));
  task_ = WithTrainShift(task_kind.make(data_, cfg_.seed), cfg_.train_shift, cfg_.seed);
  Check(cfg_.train_images <= task_->size(Split::kTrain), "option --train-images: expected at most ",
        task_->size(Split::kTrain), " (the training split of ", cfg_.env, "; 0 = all), found ", cfg_.train_images);
  pool_ = std::make_unique<WorkerPool>(cfg_.parallel == "data" ? ResolvedThreads(cfg_) - 1 : 0);
  agent_ = Agents().Get(AgentOf(task_kind, cfg_)).make(cfg_, *task_, *pool_);
  estimator_ = std::make_unique<Estimator<float>>(EstimatorConfigFor(cfg_), agent_->policy().policy);
  baseline_state_ = estimator_->StartState();
  batch_idx_.resize(static_cast<std::size_t>(cfg_.batch) * cfg_.samples);
  reward_.resize(batch_idx_.size());
  // Data-parallel shards each run their products on one BLAS thread; otherwise BLAS has them all.
  SetBlasThreads(agent_->shards() > 1 ? 1 : ResolvedThreads(cfg_));
  opt_ = MakeOptimizer(cfg_, agent_->store().size());
  if (cfg_.average > 0) {  // from the first draw; InitFrom and LoadCheckpointNow reset it
    average_ = std::make_unique<WeightAverage<float>>(agent_->store().size(), cfg_.average);
    average_->Reset(agent_->store().values().data());
  }
  if (cfg_.grad_norms) module_norms_ = std::make_unique<ModuleNorms>(agent_->store().info());
  schedule_ = &Schedules().Get(cfg_.schedule);
  perm_.resize(task_->size(Split::kTrain));

  if (file_ == nullptr) {
    if (!cfg_.init_from.empty()) InitFrom(cfg_.init_from);
    return;
  }
  if (resume) {
    if (HasCheckpoint(*file_)) {
      LoadCheckpointNow();
    } else {  // stopped before its first checkpoint: start over, keeping the stored configuration
      progress_->Line("'" + file_->path() + "' has no checkpoint yet: starting it over");
      TruncateSeries({});
    }
    return;
  }
  SetupRunFile();
  if (!cfg_.init_from.empty()) InitFrom(cfg_.init_from);
  SaveCheckpointNow();  // epoch 0: a run killed in its first epoch resumes, a NaN can roll back
  Sync(true);
}

Trainer::~Trainer() = default;

void Trainer::SetupRunFile() {
  for (const auto& [k, v] : ToKeyValues(cfg_)) logger_->Attribute(k, v);
  logger_->Attribute("glimpse_version", Version());
  logger_->Attribute("source_commit", SourceCommit());
  logger_->Attribute("created_utc", UtcNow());
  logger_->Attribute("data_fingerprint", DataFingerprint(data_));  // eval and resume check it
  logger_->Attribute("parameters", std::to_string(agent_->store().size()));
  agent_->SetupExamples(*task_, *logger_);
}

int Trainer::StepsPerEpoch() const {
  const std::int64_t n = cfg_.train_images > 0 ? std::min<std::int64_t>(cfg_.train_images, task_->size(Split::kTrain))
                                               : task_->size(Split::kTrain);
  return static_cast<int>(std::max<std::int64_t>(1, n / cfg_.batch));
}

void Trainer::Render(Batch& b, Split split, const std::int64_t* indices, int rows, std::int64_t epoch) {
  b.Resize(rows, task_->height(), task_->width());
  const int S = SharesFor(rows, pool_->workers() + 1);
  pool_->Run(S, [&](int s) {
    RenderRows(*task_, split, indices, ShareBegin(s, rows, S), ShareBegin(s + 1, rows, S), epoch, b);
  });
}

LossReport Trainer::ComputeGradients(const std::int64_t* indices, int images, std::int64_t epoch, Rng& rng,
                                     BaselineState& baseline_state) {
  const int M = cfg_.samples, N = images * M;
  for (int i = 0; i < images; ++i)
    for (int m = 0; m < M; ++m) batch_idx_[i * M + m] = indices[i];
  PhaseTimer timer(profile_);
  double* sensor_seconds = profile_ ? &profile_->sensor : nullptr;
  Render(train_batch_, Split::kTrain, batch_idx_.data(), N, epoch);
  timer.Lap(&Profile::task);
  const bool greedy = estimator_->needs_greedy();
  if (greedy) {  // the self-critical baseline: the greedy episode first
    const AgentStep g = agent_->Forward(train_batch_, {LocationMode::kMean, nullptr, 0.0, inputs_, sensor_seconds});
    for (int n = 0; n < N; ++n) reward_[n] = g.answers[n] == train_batch_.labels[n] ? 1.0f : 0.0f;
    estimator_->GreedyReturns(*g.trace, train_batch_.labels.data(), reward_.data(), greedy_returns_);
  }
  const AgentStep s =
      agent_->Forward(train_batch_, {LocationMode::kSample, &rng, cfg_.semi_sampling, inputs_, sensor_seconds});
  timer.Lap(&Profile::forward);
  for (int n = 0; n < N; ++n) reward_[n] = s.answers[n] == train_batch_.labels[n] ? 1.0f : 0.0f;
  const LossReport rep = estimator_->Compute(*s.trace, train_batch_.labels.data(), reward_.data(), *s.signals,
                                             greedy ? &greedy_returns_ : nullptr, &baseline_state);
  timer.Lap(&Profile::loss);
  agent_->store().ZeroGrad();
  agent_->Backward();
  timer.Lap(&Profile::backward);
  return rep;
}

void Trainer::SetProgressAt(std::int64_t steps_done) {
  const std::int64_t total_steps = static_cast<std::int64_t>(cfg_.epochs) * StepsPerEpoch();
  inputs_.progress = static_cast<double>(steps_done) / static_cast<double>(total_steps);
}

void Trainer::TrainStep(const std::int64_t* indices, int images, std::int64_t epoch) {
  SetProgressAt(step_);
  const LossReport rep = ComputeGradients(indices, images, epoch, policy_rng_, baseline_state_);
  const double t = profile_ ? SteadySeconds() : 0;
  auto& store = agent_->store();
  // One pass gives the gradient norm and, being non-finite when a gradient is, the NaN check (a
  // gradient above ~1e19, whose square overflows float, also counts as divergence).
  const double norm = std::sqrt(SumOfSquares(store.grads().data(), store.size()));
  if (!std::isfinite(rep.total) || !std::isfinite(norm)) {
    const std::string what = std::isfinite(rep.total) ? "a gradient" : "the loss";
    throw Diverged(
        Format("training diverged: ", what, " is NaN or inf at step ", step_ + 1, " (epoch ", epoch + 1, ")"));
  }
  if (module_norms_) module_norms_->Add(store.grads().data());
  // Global gradient-norm clipping.
  if (cfg_.clip > 0 && norm > cfg_.clip) {
    const float k = static_cast<float>(cfg_.clip / norm);
    for (float& g : store.grads()) g *= k;
  }
  sum_grad_norm_ += norm;
  const std::int64_t total = static_cast<std::int64_t>(cfg_.epochs) * StepsPerEpoch();
  const double lr = schedule_->rate(cfg_.lr, step_, total);
  opt_->Step(store, static_cast<float>(lr * lr_scale_));
  if (average_) average_->Update(store.values().data());
  if (profile_) profile_->optimizer += SteadySeconds() - t;
  ++step_;
  images_seen_ += images;
  sum_.total += rep.total, sum_.action += rep.action, sum_.reinforce += rep.reinforce;
  sum_.baseline += rep.baseline, sum_.reward += rep.reward, sum_.entropy += rep.entropy;
  sum_.step += rep.step;
  ++sum_n_;
}

double Trainer::Bench(int steps, Profile* profile) {
  const int B = std::min(cfg_.batch, task_->size(Split::kTrain));
  for (std::size_t i = 0; i < perm_.size(); ++i) perm_[i] = static_cast<std::int64_t>(i);
  const std::size_t per_epoch = perm_.size() / B;
  TrainStep(perm_.data(), B, 0);  // warm-up: sizes every buffer
  if (profile) *profile = Profile{};
  if (profile) SetGemmAccounting(true);  // restarts the products' totals, so the warm-up step is not counted
  profile_ = profile;
  const double t0 = SteadySeconds();
  for (int s = 0; s < steps; ++s) TrainStep(perm_.data() + (s % per_epoch) * B, B, 0);
  const double rate = static_cast<double>(steps) * B / (SteadySeconds() - t0);
  profile_ = nullptr;
  return rate;
}

void Trainer::Run() {
  const std::map<std::string, std::string> attrs =
      logger_->recording() ? file_->Attributes("/") : std::map<std::string, std::string>{};
  if (attrs.count(kStoppedAtTarget)) {
    progress_->Line("the run stopped at its --stop-at target (" + attrs.at("stopped_reason") + "): nothing to train");
    return;
  }
  const int steps = StepsPerEpoch();
  const int B = std::min(cfg_.batch, task_->size(Split::kTrain));
  const std::int64_t start_step = step_;
  double t_start = SteadySeconds(), t_log = t_start;
  RecordLeg();
  std::ostringstream line;
  line << "training " << cfg_.env << ": " << cfg_.epochs << " epochs x " << steps << " steps of " << B << " images (x"
       << cfg_.samples << " samples), " << agent_->store().size() << " parameters, from epoch " << epoch_;
  progress_->Line(line.str());
  // The training products' FLOPs per image (forward and backward, every episode), measured on the
  // run's first step and stored once: time to accuracy reports FLOPs beside minutes, which compare
  // across machines.
  bool measure_flops = logger_->recording() && !attrs.count(kTrainMflopPerImage);
  while (epoch_ < cfg_.epochs) {
    ShuffleEpoch(data_rng_, perm_);
    try {
      for (int s = 0; s < steps; ++s) {
        if (measure_flops) SetGemmAccounting(true);
        TrainStep(perm_.data() + static_cast<std::size_t>(s) * B, B, epoch_);
        if (measure_flops) {
          SetGemmAccounting(false);
          measure_flops = false;
          std::ostringstream mflop;
          mflop << std::fixed << std::setprecision(3) << GetGemmStats().flops / B / 1e6;
          logger_->Attribute(kTrainMflopPerImage, mflop.str());
        }
        if (step_ % cfg_.log_every == 0 || s == steps - 1) {
          const double now = SteadySeconds();
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
    wall_s_ += SteadySeconds() - t_log;
    t_log = SteadySeconds();
    if (cfg_.stop_at > 0 && last_val_error_ >= 0 && last_val_error_ <= cfg_.stop_at / 100) {
      std::ostringstream why;
      why << "reached --stop-at " << cfg_.stop_at << "%: validation error " << std::fixed << std::setprecision(2)
          << 100 * last_val_error_ << "% at epoch " << epoch_;
      progress_->Line("stopping: " + why.str());
      if (logger_->recording()) {
        logger_->Attribute("stopped_reason", why.str());
        logger_->Attribute(kStoppedAtTarget, std::to_string(epoch_));
        file_->Commit();
      }
      break;
    }
  }
}

void Trainer::RecordLeg() {
  if (!logger_->recording()) return;
  const std::size_t leg = file_->SeriesLength("/provenance");
  logger_->Series("/provenance", {{"unix_time", static_cast<double>(std::time(nullptr))},
                                  {"from_epoch", static_cast<double>(epoch_)},
                                  {"epochs", static_cast<double>(cfg_.epochs)},
                                  {"threads", static_cast<double>(ResolvedThreads(cfg_))},
                                  {"data_parallel", cfg_.parallel == "data" ? 1.0 : 0.0}});
  const std::string n = std::to_string(leg);
  logger_->GroupAttribute("/provenance", "commit_" + n, SourceCommit());
  logger_->GroupAttribute("/provenance", "version_" + n, Version());
  logger_->GroupAttribute("/provenance", "utc_" + n, UtcNow());
  logger_->GroupAttribute("/provenance", "cpu_" + n, CpuModel());
  logger_->GroupAttribute("/provenance", "blas_" + n, BlasBuild());
  // The mode in effect on this thread (keep where the CPU cannot flush), not only the one asked for.
  logger_->GroupAttribute("/provenance", "denormals_" + n, FlushingDenormals() ? "flush" : "keep");
}

void Trainer::HandleDivergence(const std::string& what) {
  const bool can_roll_back = cfg_.on_nan == "rollback" && rollbacks_ < cfg_.max_rollbacks && file_ != nullptr;
  if (!can_roll_back) {
    const std::string msg = Format(what, ". The run file keeps the last good checkpoint (", epoch_,
                                   " epochs); try a lower --lr, ", "--clip, or --on-nan rollback, then --resume.");
    logger_->Attribute("stopped_reason", msg);
    Sync(true);
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
  if (module_norms_) module_norms_->Reset();
  const std::string msg = Format(what, "; rolled back to the checkpoint of epoch ", epoch_,
                                 " with the learning rate scaled by ", lr_scale_);
  logger_->Attribute("rollback_" + std::to_string(rollbacks_), msg);
  logger_->Commit();
  progress_->Line(msg);
}

void Trainer::LogTrain(double elapsed_s, std::int64_t session_steps) {
  if (sum_n_ == 0) return;
  const double n = sum_n_;
  const int steps = StepsPerEpoch();
  const double epoch_f = static_cast<double>(step_) / steps;
  const std::int64_t total = static_cast<std::int64_t>(cfg_.epochs) * steps;
  const double lr = schedule_->rate(cfg_.lr, step_ - 1, total);
  if (logger_->recording()) {
    RunLogger::Row row = {{"step", static_cast<double>(step_)},
                          {"epoch", epoch_f},
                          {"images", static_cast<double>(images_seen_)},
                          {"loss", sum_.total / n},
                          {"loss_action", sum_.action / n},
                          {"loss_reinforce", sum_.reinforce / n},
                          {"loss_baseline", sum_.baseline / n},
                          {"reward", sum_.reward / n},
                          {"accuracy", sum_.reward / n},
                          {"entropy", sum_.entropy / n},
                          {"grad_norm", sum_grad_norm_ / n},
                          {"lr", lr * lr_scale_},
                          {"wall_s", wall_s_}};
    if (cfg_.step_loss > 0) row.push_back({"loss_step", sum_.step / n});  // the auxiliary classification
    if (module_norms_)
      for (std::size_t m = 0; m < module_norms_->names().size(); ++m)
        row.push_back({"grad_norm_" + module_norms_->names()[m], module_norms_->Mean(m, n)});
    logger_->Series("/train", row);
    Sync(false);
  }
  std::ostringstream line;
  line << "epoch " << std::fixed << std::setprecision(2) << epoch_f << "/" << cfg_.epochs << " step " << step_
       << " | loss " << std::setprecision(3) << sum_.total / n << " (act " << sum_.action / n << " rl "
       << sum_.reinforce / n << " base " << sum_.baseline / n << ") | reward " << sum_.reward / n;
  if (last_val_error_ >= 0) line << " | val_error " << std::setprecision(2) << 100 * last_val_error_ << "%";
  if (elapsed_s > 0 && session_steps > 0) {
    const double steps_per_s = session_steps / elapsed_s;
    line << " | " << std::setprecision(0) << steps_per_s * cfg_.batch << " img/s | ETA "
         << Duration((total - step_) / steps_per_s);
  }
  progress_->Line(line.str());
  sum_ = LossReport{};
  sum_n_ = 0;
  sum_grad_norm_ = 0;
  if (module_norms_) module_norms_->Reset();
}

void Trainer::Sync(bool force) {
  if (file_ == nullptr) return;
  const double now = SteadySeconds();
  if (!force && now - last_sync_ < kSyncSeconds) return;
  file_->Commit();
  last_sync_ = now;
}

}  // namespace glimpse
