#include "src/train/dram_agent.h"

#include <algorithm>

#include "envs/tasks.h"
#include "src/rl/reward.h"

namespace glimpse {
namespace {

constexpr int kDigits = 10;  // each object is one digit

// The answer of every digit tuple of the task (ObjectAnswer's table).
std::vector<int> AnswerTable(const Task& task) {
  const int J = task.objects();
  std::vector<int> table(J == 1 ? kDigits : kDigits * kDigits);
  for (int d = 0; d < static_cast<int>(table.size()); ++d) {
    const int labels[2] = {J == 1 ? d : d / kDigits, d % kDigits};
    table[d] = task.Answer(labels);
  }
  return table;
}

ModelSpec DramSpec(const ExperimentConfig& cfg, const Task& task) {
  ModelSpec spec = ModelSpecFor(cfg, task);
  spec.steps = task.objects() * cfg.glimpses;  // K glimpses per object
  spec.step_logits = true;                     // object j is named after step j K
  spec.classes = kDigits;
  return spec;
}

}  // namespace

DramAgent::DramAgent(const ExperimentConfig& cfg, const Task& task, WorkerPool& pool)
    : ImageAgent(cfg, task, pool, DramSpec(cfg, task)),
      task_(task),
      answer_(task.objects(), cfg.glimpses, kDigits, task.classes(), AnswerTable(task)) {}

void DramAgent::Compose(const Rollout<float>& r, Mat<float>& Z, std::vector<std::int32_t>& answers) const {
  const int N = r.rows, C = answer_.classes();
  EnsureShape(Z, static_cast<std::size_t>(N), static_cast<std::size_t>(C));
  answer_.Forward(r.step_logits.data(), N, Z.data());
  answers.resize(N);
  for (int n = 0; n < N; ++n) {
    const float* row = Z.data() + static_cast<Index>(n) * C;
    answers[n] = static_cast<std::int32_t>(std::max_element(row, row + C) - row);
  }
}

AgentStep DramAgent::Forward(const Batch& batch, const StepContext& ctx) {
  RunModel(batch, ctx);
  const Rollout<float>& r = rollout_;
  const int N = r.rows, TT = r.steps, C = answer_.classes();
  const auto TN = static_cast<std::size_t>(TT) * N;
  // The estimator's view: the rollout's policy, one answer per canvas, no step classifications.
  trace_.steps = TT, trace_.rows = N;
  EnsureShape(trace_.head, TN, r.head.shape(1));
  EnsureShape(trace_.loc, TN, r.loc.shape(1));
  EnsureShape(trace_.baseline, TN, 1);
  std::copy(r.head.begin(), r.head.end(), trace_.head.begin());
  std::copy(r.loc.begin(), r.loc.end(), trace_.loc.begin());
  std::copy(r.baseline.begin(), r.baseline.end(), trace_.baseline.begin());
  trace_.choice.assign(r.choice.begin(), r.choice.end());
  EnsureShape(trace_.step_logits, 0, static_cast<std::size_t>(C));
  Compose(r, trace_.logits, answers_);
  RewardObjects(batch);
  EnsureShape(signals_.probs, static_cast<std::size_t>(N), static_cast<std::size_t>(C));
  EnsureShape(signals_.dlogits, static_cast<std::size_t>(N), static_cast<std::size_t>(C));
  EnsureShape(signals_.dpre, TN, r.dpre.shape(1));
  EnsureShape(signals_.dbaseline, TN, 1);
  return {&trace_, answers_.data(), &signals_};
}

void DramAgent::RewardObjects(const Batch& batch) {
  const int N = trace_.rows;
  int named[2];
  if (task_.Decode(0, named) != answer_.objects()) {  // the answer does not name the objects (a sum): the trainer's 0/1
    trace_.reward_to_go.clear();
    return;
  }
  trace_.reward_to_go.resize(static_cast<std::size_t>(trace_.steps) * N);
  for (int n = 0; n < N; ++n) {
    int truth[2] = {-1, -1};  // the digits named by label n (Decode fills answer_.objects() of them)
    task_.Decode(batch.labels[n], truth);
    double to_go = 0;  // objects named right from block j on
    for (int j = answer_.objects() - 1; j >= 0; --j) {
      const float* z = answer_.Object(rollout_.step_logits.data(), N, j) + static_cast<Index>(n) * kDigits;
      to_go += (std::max_element(z, z + kDigits) - z) == truth[j] ? 1.0 : 0.0;
      for (int t = j * cfg_.glimpses; t < (j + 1) * cfg_.glimpses; ++t)
        trace_.reward_to_go[static_cast<std::size_t>(t) * N + n] = to_go;
    }
  }
}

void DramAgent::Backward() {
  Rollout<float>& r = rollout_;
  std::copy(signals_.dpre.begin(), signals_.dpre.end(), r.dpre.begin());
  std::copy(signals_.dbaseline.begin(), signals_.dbaseline.end(), r.dbaseline.begin());
  std::fill(r.dlogits.begin(), r.dlogits.end(), 0.0f);  // unused with step logits
  answer_.Backward(r.step_logits.data(), trace_.logits.data(), signals_.dlogits.data(), r.rows, r.dstep_logits.data());
  ImageAgent::Backward();
}

void DramAgent::Predict(const Rollout<float>& r, std::vector<std::int32_t>& answers) const {
  Mat<float> Z;
  Compose(r, Z, answers);
}

AgentKind DramAgentKind() {
  AgentKind k;
  k.name = "dram";
  k.help =
      "DRAM (Ba et al. 2015): --glimpses glimpses per object, naming the objects one after another "
      "(pairs100, sum100)";
  k.validate_config = [](const ExperimentConfig& c) {
    const TaskKind& task = Tasks().Get(c.env);
    Check(task.objects > 1, "option --agent dram names the objects of a canvas one after another; --env ", c.env,
          " has one (use --env pairs100 or sum100)");
    Check(c.step_loss == 0, "option --step-loss: --agent dram already classifies after each object's glimpses");
    Check(!Rewards().Get(c.reward).per_step, "option --reward ", c.reward,
          ": --agent dram rewards each object it names (use --reward terminal)");
  };
  k.make = [](const ExperimentConfig& c, const Task& task, WorkerPool& pool) {
    return std::make_unique<DramAgent>(c, task, pool);
  };
  return k;
}

}  // namespace glimpse
