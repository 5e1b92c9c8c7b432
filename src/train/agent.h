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

class Agent {
 public:
  virtual ~Agent() = default;
  virtual ParamStore<float>& store() = 0;
  // Answers every row of batch: kSample draws the hard choices from rng (with probability
  // semi_sampling a row takes the policy's mean instead), kMean takes the mean (rng unused).
  virtual void Forward(const Batch& batch, LocationMode mode, Rng* rng, double semi_sampling) = 0;
  // Of the last Forward: the trace the estimator reads (its logits (N, C) are the answer scores)
  // and the answers, their argmax (N).
  virtual const PolicyTrace<float>& trace() const = 0;
  virtual const std::int32_t* answers() const = 0;
  // Where the estimator writes its signals for the last Forward; Backward adds their gradient to
  // store().grads().
  virtual LossSignals<float>& signals() = 0;
  virtual void Backward() = 0;
  // The hard-attention policy whose choices REINFORCE trains (null: differentiable or none), and
  // the parameter tensors that receive its gradient (the gradient-variance diagnostic).
  virtual const LocationPolicy<float>* policy() const = 0;
  virtual std::vector<ParamId> PolicyParams() const = 0;
  // Metrics of the last Forward beyond the answer error, as (hits, count) per name, added to
  // counts; rows i M .. i M + M - 1 hold the M samples of one image. (strip5: the attention peak.)
  virtual void CountMetrics(const Batch& /*batch*/, int /*samples*/,
                            std::map<std::string, std::pair<double, double>>& /*counts*/) const {}
  // Examples for plotting, under examples_group(): Setup writes the fixed inputs of a new run; Log
  // appends one entry per evaluation, each block dataset of the group growing by one, among them
  // <group>/epoch (the trainer counts and truncates the entries by it).
  virtual std::string examples_group() const = 0;
  virtual void SetupExamples(const Task& task, RunLogger& log) = 0;
  virtual void LogExamples(const Task& task, RunLogger& log, std::int64_t epoch) = 0;
  // Model replicas working on shares of each batch in parallel (1: none); with more than one, each
  // matrix product runs on one BLAS thread (the trainer sets that).
  virtual int shards() const { return 1; }
  // When set, Forward adds the seconds spent in its sensor to *seconds (bench --profile).
  virtual void set_sensor_timer(double* /*seconds*/) {}
  // Training progress in [0, 1] (step / total steps), before each training step: a schedule's input.
  virtual void SetProgress(double /*fraction*/) {}
};

// The registered agents: one declaration and one line per kind in agent.cpp.
struct AgentKind : KindInfo {
  // The agent for cfg on task (which outlives it); pool: --threads - 1 workers it may use.
  std::function<std::unique_ptr<Agent>(const ExperimentConfig&, const Task&, WorkerPool&)> make;
  bool query = false;  // reads each sample's query: it answers the tasks with TaskKind::query, and only those
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
