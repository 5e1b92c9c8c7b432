// strip5's query-conditioned item attention (src/model/query_model.h) as an Agent. --attention soft
// trains by backpropagation; categorical draws one slot and trains the choice with the REINFORCE
// estimators, the answer network with the cross-entropy, as RAM's hybrid loss does.
//
// Metric beyond the answer error, "peak": the fraction of strips that hold the query whose
// attention peak (argmax alpha) is on the query's slot.
// Examples, under /attention: the first cfg.trajectories test strips (strip (K, 28, 140), query,
// answer (K), labels (K, 5)) and, per evaluation, epoch, the weights of every query 0..9 over the
// slots, weights (K, 10, 5), and the answer to each, prediction (K, 10).
#pragma once

#include "src/model/query_model.h"
#include "src/train/agent.h"

namespace glimpse {

class QueryAgent : public Agent {
 public:
  explicit QueryAgent(const ExperimentConfig& cfg);

  ParamStore<float>& store() override { return model_->store(); }
  AgentStep Forward(const Batch& batch, const StepContext& ctx) override;
  void Backward() override { model_->Backward(rollout_); }
  PolicyView policy() const override { return {model_->policy(), model().PolicyParams()}; }
  void CountMetrics(const Batch& batch, int samples,
                    std::map<std::string, std::pair<double, double>>& counts) const override;
  void SetupExamples(const Task& task, RunLogger& log) override;
  void LogExamples(const Task& task, RunLogger& log, std::int64_t epoch) override;
  const QueryModel<float>& model() const { return *model_; }

 private:
  ExperimentConfig cfg_;
  std::unique_ptr<QueryModel<float>> model_;
  QueryRollout<float> rollout_;
};

}  // namespace glimpse
