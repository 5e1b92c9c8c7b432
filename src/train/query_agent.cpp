#include "src/train/query_agent.h"

#include <algorithm>
#include <cmath>

#include "envs/strip5.h"
#include "src/attention/attentions.h"

namespace glimpse {
namespace {

constexpr int kQueries = 10;
static_assert(kQuerySlots == StripSample::kSlots && kQuerySlotSide == Strip5Task::kDigit &&
                  kQueryAnswers == StripSample::kAnswers,
              "the query model's strip geometry is strip5's");

}  // namespace

QueryAgent::QueryAgent(const ExperimentConfig& cfg) : Agent("/attention", 1), cfg_(cfg) {
  QuerySpec spec;
  spec.slot_hidden = cfg_.hidden;
  spec.features = cfg_.glimpse_hidden;
  spec.att = cfg_.attention_dim;
  spec.score = ParseScore(cfg_.score);
  spec.hard = Attentions<float>().Get(cfg_.attention).hard();
  model_ = std::make_unique<QueryModel<float>>(spec);
  Rng init(cfg_.seed, "init");
  model_->Init(init);
}

AgentStep QueryAgent::Forward(const Batch& batch, const StepContext& ctx) {  // no schedule, no semi-sampling
  model_->Forward(batch.images.data(), batch.queries.data(), batch.rows, rollout_, ctx.mode, ctx.rng);
  return {&rollout_.r, rollout_.r.actions.data(), &rollout_.r};
}

void QueryAgent::CountMetrics(const Batch& batch, int samples,
                              std::map<std::string, std::pair<double, double>>& counts) const {
  auto& [hits, count] = counts["peak"];
  for (int i = 0; i < batch.rows / samples; ++i) {
    const int answer = batch.labels[i * samples];
    if (answer == StripSample::kAbsent) continue;
    const float* alpha = rollout_.r.head.data() + static_cast<std::ptrdiff_t>(i * samples) * kQuerySlots;
    ++count;
    hits += std::max_element(alpha, alpha + kQuerySlots) - alpha == answer;
  }
}

void QueryAgent::SetupExamples(const Task& task, RunLogger& log) {
  const auto* strip5 = dynamic_cast<const Strip5Task*>(&task);
  Check(strip5 != nullptr, "the query agent answers strip5 only");
  const int K = std::min(cfg_.trajectories, task.size(Split::kTest));
  if (K <= 0) return;
  const std::size_t k = static_cast<std::size_t>(K);
  std::vector<float> strips(k * task.pixels());
  std::vector<std::int32_t> query(k), answer(k), labels(k * StripSample::kSlots);
  for (int i = 0; i < K; ++i) {
    const StripSample s =
        strip5->RenderStrip(Split::kTest, i, 0, strips.data() + static_cast<std::size_t>(i) * task.pixels());
    query[i] = s.query;
    answer[i] = s.answer;
    std::copy(s.labels.begin(), s.labels.end(), labels.begin() + static_cast<std::ptrdiff_t>(i) * StripSample::kSlots);
  }
  log.Array("/attention/strip", {k, static_cast<std::size_t>(task.height()), static_cast<std::size_t>(task.width())},
            strips.data());
  log.Array("/attention/query", {k}, query.data());
  log.Array("/attention/answer", {k}, answer.data());
  log.Array("/attention/labels", {k, static_cast<std::size_t>(StripSample::kSlots)}, labels.data());
}

void QueryAgent::LogExamples(const Task& task, RunLogger& log, std::int64_t epoch) {
  const int K = std::min(cfg_.trajectories, task.size(Split::kTest));
  if (K <= 0) return;
  // Every query 0..9 on each of the K strips: rows k * 10 + q.
  const std::size_t P = static_cast<std::size_t>(task.pixels()), rows = static_cast<std::size_t>(K) * kQueries;
  std::vector<float> strips(rows * P);
  std::vector<std::int32_t> queries(rows);
  for (int k = 0; k < K; ++k) {
    float* first = strips.data() + static_cast<std::size_t>(k) * kQueries * P;
    task.Render(Split::kTest, k, 0, first);
    for (int q = 0; q < kQueries; ++q) {
      if (q > 0) std::copy_n(first, P, first + q * P);
      queries[k * kQueries + q] = q;
    }
  }
  QueryRollout<float> r;
  model_->Forward(strips.data(), queries.data(), static_cast<int>(rows), r, LocationMode::kMean, nullptr);
  const std::size_t k = static_cast<std::size_t>(K);
  log.Block("/attention/epoch", {}, &epoch);
  log.Block("/attention/weights", {k, kQueries, StripSample::kSlots}, r.r.head.data());
  log.Block("/attention/prediction", {k, kQueries}, r.r.actions.data());
}

AgentKind QueryAgentKind() {
  AgentKind k;
  k.name = "query";
  k.help = "strip5's query-conditioned item attention over the five slots";
  k.query = true;
  // The item attention reads whole slots; it has two modes of its own, named as the attentions they mirror.
  k.validate_config = [](const ExperimentConfig& c) {
    Check(c.attention == "soft" || c.attention == "categorical", "option --attention: strip5 takes ",
          "soft (item-wise soft attention) or categorical (a REINFORCE choice of one slot), found '", c.attention, "'");
    Check(!c.rl_into_core, "option --rl-into-core: strip5's query model has no recurrent core to send REINFORCE into");
    Check(c.context == 0, "option --context: strip5's query model has no context network; use 0");
    Check(c.glimpse_net == ExperimentConfig().glimpse_net, "option --glimpse-net: strip5's query model reads whole ",
          "slots and has no glimpse network to change; leave the default");
    Check(c.step_loss == 0, "option --step-loss: strip5's query model answers once, after its last step; use 0");
  };
  k.make = [](const ExperimentConfig& c, const Task&, WorkerPool&) { return std::make_unique<QueryAgent>(c); };
  return k;
}

}  // namespace glimpse
