// DRAM's sequential agent (Ba, Mnih and Kavukcuoglu 2015, "Multiple object recognition with visual
// attention"), --agent dram, for the tasks with several objects per canvas (pairs100, sum100):
// one attention model (any --attention, either core, the context network with --context) runs
// K = --glimpses glimpses per object and J objects in turn, T = J K steps on one core state, and
// after step j K its action network names object j's digit (ModelSpec::step_logits; the other
// steps' classifications are unused). Then it looks for the next object.
//
// The answer is composed from the named digits by the task's own rule (ObjectAnswer, Task::Answer):
// the estimator sees one answer per canvas with log-probabilities Z (N, C), so the cross-entropy,
// the evaluation with M samples and the sequence error are the trainer's own. On pairs100 the
// answer's cross-entropy is the sum of the digits'; on sum100 the digits are never observed.
// REINFORCE: where the answer names the objects (Task::Decode, pairs100), object j earns 1 if its
// digit is right and step t of block j gets the reward to go, the objects named right from j on
// (PolicyTrace::reward_to_go: unbiased for the expected number of digits named right); otherwise
// (sum100) every step gets the answer's 0/1.
// An ImageAgent (its model, replicas and logged examples: T = J K steps per trajectory, block j the
// steps (j-1) K + 1 .. j K) with its own model spec, trace and answers.
#pragma once

#include <vector>

#include "src/model/object_answer.h"
#include "src/train/image_agent.h"

namespace glimpse {

class DramAgent : public ImageAgent {
 public:
  DramAgent(const ExperimentConfig& cfg, const Task& task, WorkerPool& pool);

  AgentStep Forward(const Batch& batch, const StepContext& ctx) override;
  void Backward() override;
  int objects() const { return answer_.objects(); }

 protected:
  void Predict(const Rollout<float>& r, std::vector<std::int32_t>& answers) const override;

 private:
  // The answers' log-probabilities of r into Z (N, C) and their argmax into answers.
  void Compose(const Rollout<float>& r, Mat<float>& Z, std::vector<std::int32_t>& answers) const;
  // Per-object rewards of the last Forward into trace_.reward_to_go (tasks whose answer names them).
  void RewardObjects(const Batch& batch);

  const Task& task_;
  ObjectAnswer<float> answer_;
  PolicyTrace<float> trace_;           // what the estimator reads: the rollout's policy, Z
  LossSignals<float> signals_;         // what it writes: dlogits at Z, dpre, dbaseline
  std::vector<std::int32_t> answers_;  // (N) argmax Z
};

}  // namespace glimpse
