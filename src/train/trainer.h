// Trains and evaluates an Agent (agent.h) on a registered Task from an ExperimentConfig, logging
// through a RunLogger to a RunFile (or to nothing, for benchmarks). One generic step serves every
// task and agent: render a Batch of the task (in parallel on the worker pool), the agent answers it,
// the rewards score the answers, the estimator turns the agent's trace into loss signals, the agent
// back-propagates them, the optimizer steps.
//
// Random streams (docs/architecture.md): "init" draws the parameters, "data" shuffles each epoch,
// "policy" samples training locations, "eval" samples evaluation episodes (a fresh stream for each
// evaluation, so evaluating more or less often never changes training). The same seed and thread
// count give the same run, resumed or not.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/batch.h"
#include "envs/dataset.h"
#include "src/core/denormals.h"
#include "src/core/optimizer.h"
#include "src/core/schedule.h"
#include "src/core/weight_average.h"
#include "src/core/worker_pool.h"
#include "src/store/run_attributes.h"
#include "src/store/run_file.h"
#include "src/store/run_logger.h"
#include "src/train/agent.h"
#include "src/train/config.h"
#include "src/train/module_norms.h"
#include "src/train/progress.h"

namespace glimpse {

struct EvalResult {
  double error = 0;  // fraction of samples answered wrongly
  int images = 0;
  int samples = 1;  // 1: the policy's mode; M > 1: answer probabilities averaged over M sampled episodes
  std::map<std::string, double> extra;        // the agent's further metrics (logged as series columns)
  std::vector<std::int32_t> labels, answers;  // per sample, in split order: the true class and the one given
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

class Trainer {
 public:
  // Builds data, task, model and optimizer from cfg (validated). With a RunFile, a new run writes
  // its configuration; with resume, the last checkpoint is loaded and later rows are dropped.
  // Sets the calling thread's --denormals mode (src/core/denormals.h) before it starts its workers,
  // which inherit it; the caller's mode is back when the Trainer is gone.
  Trainer(const ExperimentConfig& cfg, RunFile* file, bool resume);
  ~Trainer();

  // Trains until cfg.epochs are complete, evaluating, logging and checkpointing each epoch.
  void Run();

  // Runs `steps` training updates on consecutive batches (benchmarks); returns images per second.
  double Bench(int steps, Profile* profile = nullptr);
  // Where the trainer's messages to a person go (default: the terminal); not owned, must outlive it.
  void set_progress(Progress* progress) { progress_ = progress; }
  // Leaves test errors out of the messages (the epoch lines); the run file stores them as ever.
  // Sweeps set it: a row's test error is read once, when the row is finished (docs/results.md).
  void hide_test_in_messages() { show_test_ = false; }

  // How Evaluate(samples) answers, in words, for logs: the policy mean, one seeded sample (a policy
  // without a mean, the uniform control), M averaged samples, or deterministic reads.
  std::string DescribeEval(int samples) const;
  EvalResult Evaluate(Split split, int samples, int max_images);
  // With --average: Evaluate of the parameter average (in the training parameters' place for the call).
  bool averaging() const { return average_ != nullptr; }
  EvalResult EvaluateAverage(Split split, int samples, int max_images);

  // Loads only the parameters of the last checkpoint in `file` (evaluation of a finished run), or,
  // with best, of its best-by-validation checkpoint (checkpoint.h); returns that checkpoint's epoch.
  // Both refuse a run trained on other digits than this trainer's data folder holds (data_fingerprint).
  std::int64_t LoadWeights(const RunFile& file, bool best = false);

  std::int64_t step() const { return step_; }
  std::int64_t epoch() const { return epoch_; }
  const StepInputs& inputs() const { return inputs_; }  // what each Forward tells the sensors (SetProgressAt)
  Agent& agent() { return *agent_; }
  const Task& task() const { return *task_; }
  ParamStore<float>& store() { return agent_->store(); }
  // Gradient-variance diagnostic on the fixed probe batch (the first B training images, epoch 0):
  // over cfg.diag_draws REINFORCE draws, the gradient g_d of the agent's policy().params; grad_var is the mean
  // per-parameter variance, grad_snr = |mean g| / sqrt(sum of variances), entropy the mean policy
  // entropy per step. Uses its own Rng stream and leaves the training state untouched.
  struct Diagnostic {
    double grad_var = 0, grad_snr = 0, entropy = 0;
  };
  Diagnostic MeasureGradientVariance(int draws);

  // Called after every update (tests use it to stop a run part-way).
  std::function<void(std::int64_t step)> on_step;

 private:
  void TrainStep(const std::int64_t* indices, int images, std::int64_t epoch);
  // Sets inputs_.progress to the training progress after steps_done of the run's updates.
  void SetProgressAt(std::int64_t steps_done);
  // The step up to the gradients: forward, loss and backward on `images` training samples (each
  // repeated cfg.samples times as consecutive rows); zeroes and fills store().grads().
  LossReport ComputeGradients(const std::int64_t* indices, int images, std::int64_t epoch, Rng& rng,
                              BaselineState& baseline_state);
  // Renders samples indices[0..rows) of split into b, in parallel on the worker pool.
  void Render(Batch& b, Split split, const std::int64_t* indices, int rows, std::int64_t epoch);
  // The number of example entries logged (the length of <examples group>/epoch).
  std::size_t ExamplesLogged() const;
  void SetupRunFile();
  void LogTrain(double elapsed_s, std::int64_t session_steps);
  void EndEpoch();
  void Diagnose();
  void HandleDivergence(const std::string& what);
  struct Diverged : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  double lr_scale_ = 1.0;  // halved by each rollback; saved in checkpoints
  int rollbacks_ = 0;
  double sum_grad_norm_ = 0;
  std::unique_ptr<ModuleNorms> module_norms_;  // --grad-norms
  Profile* profile_ = nullptr;
  static inline TerminalProgress terminal_;
  Progress* progress_ = &terminal_;
  bool show_test_ = true;
  // Commits the run file (atomically: see RunFile) at checkpoints, and otherwise at most every
  // kSyncSeconds, so a reader sees progress while the copy cost stays small.
  void Sync(bool force);
  static constexpr double kSyncSeconds = 10.0;
  double last_sync_ = 0;
  void SaveCheckpointNow();
  void LoadCheckpointNow();
  void InitFrom(const std::string& path);  // --init-from: another run's selected parameters
  // Cuts every series and trajectory dataset to the given lengths (absent: 0).
  void TruncateSeries(const std::map<std::string, std::int64_t>& lengths);
  void RestoreParams(const struct Checkpoint& c, const std::string& path);
  int StepsPerEpoch() const;

  ExperimentConfig cfg_;
  DenormalMode denormals_;             // --denormals on this thread, and on the workers started after it
  RunFile* file_;                      // checkpoints and resume; null: none
  std::unique_ptr<RunLogger> logger_;  // over file_, or a NullLogger
  DigitDataset data_;
  std::unique_ptr<Task> task_;
  std::unique_ptr<WorkerPool> pool_;  // --threads - 1 workers under --parallel data
  std::unique_ptr<Agent> agent_;
  std::unique_ptr<Estimator<float>> estimator_;
  Batch train_batch_, eval_batch_;
  std::vector<std::int64_t> batch_idx_;  // (B M) training rows: each image's index M times
  std::vector<float> reward_;            // (B M)
  std::vector<double> greedy_returns_;   // (T B M): the greedy episodes' returns (self-critical baseline)
  BaselineState baseline_state_;         // the baseline's state after the updates done (checkpointed)
  std::unique_ptr<Optimizer<float>> opt_;
  // --average: the parameter average that evaluation selects and /best keeps (null: off). Its buffer is
  // checkpointed as optimizer state "average".
  std::unique_ptr<WeightAverage<float>> average_;
  const ScheduleKind* schedule_ = nullptr;
  Rng data_rng_, policy_rng_;
  std::vector<std::int64_t> perm_;
  std::int64_t step_ = 0, epoch_ = 0;
  StepInputs inputs_;  // what every Forward tells the sensors: the training progress (SetProgressAt), ...
  double wall_s_ = 0;  // the run's wall time (training steps, evaluations, checkpoints), carried across resumes
  double eval_s_ = 0;  // evaluation wall time (validation and test passes), carried across resumes
  double test_s_ = 0;  // the test passes' share of eval_s_ (a time to accuracy may leave it out), likewise
  // Averages over the current logging interval.
  LossReport sum_;
  int sum_n_ = 0;
  std::int64_t images_seen_ = 0;
  double last_val_error_ = -1;
  double best_val_error_ = std::numeric_limits<double>::infinity();  // of the /best checkpoint
  void SaveBestNow();
  struct Checkpoint ParamsNow() const;  // step, epoch and the parameters with their table
  // Appends this leg (a new run, or each resume) to /provenance: its start time, from which epoch, to
  // how many, threads, and as attributes the commit, version and UTC time that ran it.
  void CheckSameData(const RunFile& file) const;  // Error when file was trained on other data
  void RecordLeg();
};

}  // namespace glimpse
