// An Agent: the model side of a training step, behind the one interface the Trainer drives. The
// trainer renders a Batch from the task (envs), the agent answers it (Forward), the trainer scores the
// answers and runs the REINFORCE estimator (rl) on the agent's trace, and the agent back-propagates
// the estimator's signals into its parameters (Backward). Evaluation is the same Forward.
//   ImageAgent (image_agent.h): the attention models of the image tasks (every --attention).
//   QueryAgent (query_agent.h): strip5's query-conditioned item attention.
//   DramAgent (dram_agent.h): DRAM's sequential agent for canvases with several objects (--agent dram).
// A task names its agent (TaskKind::agent), --agent may pick another; the agents are registered
// kinds (Agents()).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/batch.h"
#include "envs/tasks.h"
#include "src/core/params.h"
#include "src/core/registry.h"
#include "src/core/worker_pool.h"
#include "src/model/attention_model.h"
#include "src/rl/estimator.h"
#include "src/store/run_logger.h"
#include "src/train/config.h"

namespace glimpse {

// What one Forward needs beyond its batch, one value the trainer passes down the step (in place of
// setters that had to be called in the right order).
struct StepContext {
  LocationMode mode = LocationMode::kMean;  // kSample: hard choices drawn from rng; kMean: the policy's mean
  Rng* rng = nullptr;                       // kSample's draws (unused under kMean, but by a policy without one)
  double semi_sampling = 0;                 // kSample: probability that a row takes the policy's mean instead
  StepInputs inputs;                        // what every sensor is told (the training progress, ...)
  double* sensor_seconds = nullptr;  // when set, the seconds spent in the sensor are added here (bench --profile)
};

// What one Forward gives, all owned by the agent and valid until its next Forward: the trace the
// estimator reads (its logits (N, C) are the answer scores), the answers, their argmax (N), and where
// the estimator writes its signals, whose gradient Backward adds to store().grads().
struct AgentStep {
  const PolicyTrace<float>* trace = nullptr;
  const std::int32_t* answers = nullptr;
  LossSignals<float>* signals = nullptr;
};

// The hard-attention policy whose choices REINFORCE trains (null: differentiable reads or none) and
// the parameter tensors that receive its gradient (the gradient-variance diagnostic).
struct PolicyView {
  const LocationPolicy<float>* policy = nullptr;
  std::vector<ParamId> params;
};

class Agent {
 public:
  // examples_group: where the logged examples go ("/trajectories"); shards: model replicas working
  // on shares of each batch in parallel (1: none; with more, each matrix product runs on one BLAS
  // thread, which the trainer sets).
  Agent(std::string examples_group, int shards) : examples_group_(std::move(examples_group)), shards_(shards) {}
  virtual ~Agent() = default;
  virtual ParamStore<float>& store() = 0;
  // Answers every row of batch as ctx says (the mode, its draws, the training progress).
  virtual AgentStep Forward(const Batch& batch, const StepContext& ctx) = 0;
  // Adds the gradient of the signals the estimator wrote into the last Forward's AgentStep.
  virtual void Backward() = 0;
  virtual PolicyView policy() const = 0;
  // Metrics of the last Forward beyond the answer error, as (hits, count) per name, added to
  // counts; rows i M .. i M + M - 1 hold the M samples of one image. (strip5: the attention peak.)
  virtual void CountMetrics(const Batch& /*batch*/, int /*samples*/,
                            std::map<std::string, std::pair<double, double>>& /*counts*/) const {}
  // Examples for plotting, under examples_group(): Setup writes the fixed inputs of a new run; Log
  // appends one entry per evaluation (at the progress of that evaluation's Forward), each block
  // dataset of the group growing by one, among them <group>/epoch (the trainer counts and truncates
  // the entries by it).
  virtual void SetupExamples(const Task& task, RunLogger& log) = 0;
  virtual void LogExamples(const Task& task, RunLogger& log, std::int64_t epoch) = 0;
  const std::string& examples_group() const { return examples_group_; }
  int shards() const { return shards_; }

 private:
  std::string examples_group_;
  int shards_;
};

// The registered agents: one declaration and one line per kind in agent.cpp.
struct AgentKind : KindInfo {
  // The agent for cfg on task (which outlives it); pool: --threads - 1 workers it may use.
  std::function<std::unique_ptr<Agent>(const ExperimentConfig&, const Task&, WorkerPool&)> make;
  bool query = false;  // reads each sample's query: it answers the tasks with TaskKind::query, and only those
  // Throws Error naming the option for a configuration whose model this agent cannot build (an agent
  // builds the model, so its rules read the model's options); null: nothing to check.
  std::function<void(const ExperimentConfig&)> validate_config;
};
const Registry<AgentKind>& Agents();
// The agent a configuration runs: --agent, or the task's own.
inline const std::string& AgentOf(const TaskKind& task, const ExperimentConfig& cfg) {
  return cfg.agent.empty() ? task.agent : cfg.agent;
}

// The REINFORCE estimator options of a configuration (baseline, weights, samples).
EstimatorConfig EstimatorConfigFor(const ExperimentConfig& cfg);

// avg (C) += softmax(logits (C)): evaluation averages the answer probabilities of M episodes.
void AddProbabilities(const float* logits, int classes, double* avg);

}  // namespace glimpse
