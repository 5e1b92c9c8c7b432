#include "src/train/trainer.h"

#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <thread>

#include "src/core/blas.h"
#include "src/core/schedule.h"
#include "src/core/version.h"
#include "src/nn/vmath.h"
#include "src/train/checkpoint.h"

namespace glimpse {
namespace {

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


}  // namespace

Trainer::Trainer(const ExperimentConfig& cfg, RunFile* file, bool resume)
    : cfg_(cfg), file_(file), data_rng_(cfg.seed, "data"), policy_rng_(cfg.seed, "policy") {
  Validate(cfg_);
  learner_ = MakeLearner(cfg_);
  // Data-parallel shards each run their products on one BLAS thread; otherwise BLAS has them all.
  SetBlasThreads(learner_->shards() > 1 ? 1 : ResolvedThreads(cfg_));
  opt_ = Optimizers().Get(cfg_.optimizer).make(cfg_, learner_->store().size());
  schedule_ = &Schedules().Get(cfg_.schedule);
  perm_.resize(learner_->size(Split::kTrain));

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
  SetupRunFile();
  SaveCheckpointNow();  // epoch 0: a run killed in its first epoch resumes, a NaN can roll back
  Sync(true);
}

Trainer::~Trainer() = default;

void Trainer::SetupRunFile() {
  for (const auto& [k, v] : ToKeyValues(cfg_)) file_->SetAttribute("/", k, v);
  file_->SetAttribute("/", "glimpse_version", Version());
  file_->SetAttribute("/", "source_commit", SourceCommit());
  file_->SetAttribute("/", "created_utc", UtcNow());
  file_->SetAttribute("/", "parameters", std::to_string(learner_->store().size()));
  learner_->SetupExamples(*file_);
}

int Trainer::StepsPerEpoch() const {
  const std::int64_t n = cfg_.train_images > 0 ? std::min<std::int64_t>(cfg_.train_images, learner_->size(Split::kTrain))
                                               : learner_->size(Split::kTrain);
  return static_cast<int>(std::max<std::int64_t>(1, n / cfg_.batch));
}

void Trainer::TrainStep(const std::int64_t* indices, int images, std::int64_t epoch) {
  const LossReport rep = learner_->TrainBatch(indices, images, epoch, policy_rng_, profile_);
  const double t = profile_ ? SteadySeconds() : 0;
  auto& store = learner_->store();
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
  const double lr = schedule_->rate(cfg_.lr, step_, total);
  opt_->Step(store, static_cast<float>(lr * lr_scale_));
  if (profile_) profile_->optimizer += SteadySeconds() - t;
  ++step_;
  images_seen_ += images;
  sum_.total += rep.total, sum_.action += rep.action, sum_.reinforce += rep.reinforce;
  sum_.baseline += rep.baseline, sum_.reward += rep.reward, sum_.entropy += rep.entropy;
  ++sum_n_;
}

double Trainer::Bench(int steps, Profile* profile) {
  const int B = std::min(cfg_.batch, learner_->size(Split::kTrain));
  for (std::size_t i = 0; i < perm_.size(); ++i) perm_[i] = static_cast<std::int64_t>(i);
  const std::size_t per_epoch = perm_.size() / B;
  TrainStep(perm_.data(), B, 0);  // warm-up: sizes every buffer
  if (profile) *profile = Profile{};
  profile_ = profile;
  const double t0 = SteadySeconds();
  for (int s = 0; s < steps; ++s) TrainStep(perm_.data() + (s % per_epoch) * B, B, 0);
  const double rate = static_cast<double>(steps) * B / (SteadySeconds() - t0);
  profile_ = nullptr;
  return rate;
}

void Trainer::Run() {
  const int steps = StepsPerEpoch();
  const int B = std::min(cfg_.batch, learner_->size(Split::kTrain));
  const std::int64_t start_step = step_;
  double t_start = SteadySeconds(), t_log = t_start;
  std::cout << "training " << cfg_.env << ": " << cfg_.epochs << " epochs x " << steps << " steps of "
            << B << " images (x" << cfg_.samples << " samples), " << learner_->store().size()
            << " parameters, from epoch " << epoch_ << "\n" << std::flush;
  while (epoch_ < cfg_.epochs) {
    for (std::size_t i = 0; i < perm_.size(); ++i) perm_[i] = static_cast<std::int64_t>(i);
    for (std::size_t i = perm_.size() - 1; i > 0; --i)
      std::swap(perm_[i], perm_[data_rng_.UniformInt(i + 1)]);
    try {
      for (int s = 0; s < steps; ++s) {
        TrainStep(perm_.data() + static_cast<std::size_t>(s) * B, B, epoch_);
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
  const double lr = schedule_->rate(cfg_.lr, step_ - 1, total);
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
  return learner_->Evaluate(split, samples, max_images);
}

void Trainer::EndEpoch() {
  const bool eval_now = epoch_ % cfg_.eval_every == 0 || epoch_ == cfg_.epochs;
  if (eval_now) {
    const double t0 = SteadySeconds();
    const EvalResult val = Evaluate(Split::kVal, 1, cfg_.val_images);
    const EvalResult test = Evaluate(Split::kTest, 1, learner_->size(Split::kTest));
    last_val_error_ = val.error;
    if (file_) {
      std::vector<std::pair<std::string, double>> row = {
          {"step", static_cast<double>(step_)}, {"epoch", static_cast<double>(epoch_)}, {"val_error", val.error},
          {"test_error", test.error}, {"rss_mb", ResidentMb()}};
      for (const auto& [name, value] : test.extra) row.emplace_back("test_" + name, value);
      file_->Append("/eval", row);
      learner_->LogExamples(*file_, epoch_);
    }
    std::cout << "epoch " << epoch_ << "/" << cfg_.epochs << " done | val_error " << std::fixed
              << std::setprecision(2) << 100 * val.error << "% test_error " << 100 * test.error
              << (learner_->hard() ? "% (policy mean)" : "% (deterministic reads)");
    for (const auto& [name, value] : test.extra) std::cout << " test_" << name << " " << 100 * value << "%";
    std::cout << " | train " << Duration(wall_s_) << ", eval " << Duration(SteadySeconds() - t0)
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
  const double now = SteadySeconds();
  if (!force && now - last_sync_ < kSyncSeconds) return;
  file_->Commit();
  last_sync_ = now;
}

}  // namespace glimpse

