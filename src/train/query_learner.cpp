#include "src/train/query_learner.h"

#include <algorithm>
#include <cmath>

#include "src/attention/attentions.h"

namespace glimpse {
namespace {

constexpr int kQueries = 10;
static_assert(kQuerySlots == StripSample::kSlots && kQuerySlotSide == Strip5Task::kDigit &&
                  kQueryAnswers == StripSample::kAnswers,
              "the query model's strip geometry is strip5's");

}  // namespace

QueryLearner::QueryLearner(const ExperimentConfig& cfg) : cfg_(cfg) {
  data_ = LoadDigitDataset(ResolveDataDir(cfg_));
  task_ = std::make_unique<Strip5Task>(data_, cfg_.seed);
  QuerySpec spec;
  spec.slot_hidden = cfg_.hidden;
  spec.features = cfg_.glimpse_hidden;
  spec.att = cfg_.attention_dim;
  spec.score = ParseScore(cfg_.score);
  spec.hard = Attentions<float>().Get(cfg_.attention).hard();
  model_ = std::make_unique<QueryModel<float>>(spec);
  Rng init(cfg_.seed, "init");
  model_->Init(init);
  estimator_ = std::make_unique<Estimator<float>>(EstimatorConfigFor(cfg_), model_->policy());
}

void QueryLearner::Load(Split split, const std::int64_t* indices, int n, int M, std::int64_t epoch) {
  const std::size_t P = static_cast<std::size_t>(task_->pixels()), rows = static_cast<std::size_t>(n) * M;
  if (strips_.size() < rows * P) strips_.resize(rows * P), queries_.resize(rows), answers_.resize(rows), reward_.resize(rows);
  for (int i = 0; i < n; ++i) {
    float* first = strips_.data() + static_cast<std::size_t>(i) * M * P;
    const StripSample s = task_->RenderStrip(split, indices[i], epoch, first);
    for (int m = 0; m < M; ++m) {
      if (m > 0) std::copy_n(first, P, first + m * P);
      queries_[i * M + m] = s.query;
      answers_[i * M + m] = s.answer;
    }
  }
}

LossReport QueryLearner::TrainBatch(const std::int64_t* indices, int images, std::int64_t epoch, Rng& rng,
                                    Profile* profile) {
  const int M = cfg_.samples, N = images * M;
  PhaseTimer timer(profile);
  Load(Split::kTrain, indices, images, M, epoch);
  timer.Lap(&Profile::task);
  model_->Forward(strips_.data(), queries_.data(), N, rollout_, LocationMode::kSample, &rng);
  timer.Lap(&Profile::forward);
  for (int n = 0; n < N; ++n) reward_[n] = rollout_.r.actions[n] == answers_[n] ? 1.0f : 0.0f;
  const LossReport rep = estimator_->Compute(rollout_.r, answers_.data(), reward_.data(), rollout_.r);
  timer.Lap(&Profile::loss);
  model_->store().ZeroGrad();
  model_->Backward(rollout_);
  timer.Lap(&Profile::backward);
  return rep;
}

EvalResult QueryLearner::Evaluate(Split split, int samples, int max_images) {
  CheckRange(samples, 1, 1024, "evaluation samples");
  Check(samples == 1 || hard(), "soft attention is deterministic: evaluate it with one sample");
  EvalResult res;
  res.samples = samples;
  res.images = std::min(max_images, task_->size(split));
  const int B = cfg_.batch, M = samples, C = StripSample::kAnswers, S = StripSample::kSlots;
  Rng eval_rng(cfg_.seed, "eval");
  std::vector<std::int64_t> idx(B);
  std::vector<double> avg(C);
  int wrong = 0, present = 0, peak_right = 0;
  for (int start = 0; start < res.images; start += B) {
    const int n = std::min(B, res.images - start);
    for (int i = 0; i < n; ++i) idx[i] = start + i;
    Load(split, idx.data(), n, M, 0);
    model_->Forward(strips_.data(), queries_.data(), n * M, rollout_,
                    M == 1 ? LocationMode::kMean : LocationMode::kSample, &eval_rng);
    for (int i = 0; i < n; ++i) {
      std::fill(avg.begin(), avg.end(), 0.0);
      for (int m = 0; m < M; ++m) {  // average the answer probabilities of the M choices
        AddProbabilities(rollout_.r.logits.data() + static_cast<std::ptrdiff_t>(i * M + m) * C, C, avg.data());
      }
      const int answer = answers_[i * M];
      wrong += static_cast<int>(std::max_element(avg.begin(), avg.end()) - avg.begin()) != answer;
      if (answer != StripSample::kAbsent) {
        const float* alpha = rollout_.r.head.data() + static_cast<std::ptrdiff_t>(i * M) * S;
        ++present;
        peak_right += std::max_element(alpha, alpha + S) - alpha == answer;
      }
    }
  }
  res.error = static_cast<double>(wrong) / res.images;
  res.extra["peak"] = present > 0 ? static_cast<double>(peak_right) / present : 0.0;
  return res;
}

void QueryLearner::SetupExamples(RunFile& file) {
  const int K = std::min(cfg_.trajectories, task_->size(Split::kTest));
  if (K <= 0) return;
  file.CreateGroup("/attention");
  const std::size_t k = static_cast<std::size_t>(K);
  std::vector<float> strips(k * task_->pixels());
  std::vector<std::int32_t> query(k), answer(k), labels(k * StripSample::kSlots);
  for (int i = 0; i < K; ++i) {
    const StripSample s = task_->RenderStrip(Split::kTest, i, 0, strips.data() + static_cast<std::size_t>(i) * task_->pixels());
    query[i] = s.query;
    answer[i] = s.answer;
    std::copy(s.labels.begin(), s.labels.end(), labels.begin() + static_cast<std::ptrdiff_t>(i) * StripSample::kSlots);
  }
  file.WriteArray<float>("/attention/strip", {k, static_cast<std::size_t>(task_->height()),
                         static_cast<std::size_t>(task_->width())}, strips.data());
  file.WriteArray<std::int32_t>("/attention/query", {k}, query.data());
  file.WriteArray<std::int32_t>("/attention/answer", {k}, answer.data());
  file.WriteArray<std::int32_t>("/attention/labels", {k, static_cast<std::size_t>(StripSample::kSlots)}, labels.data());
}

void QueryLearner::LogExamples(RunFile& file, std::int64_t epoch) {
  const int K = std::min(cfg_.trajectories, task_->size(Split::kTest));
  if (K <= 0) return;
  // Every query 0..9 on each of the K strips: rows k * 10 + q.
  const std::size_t P = static_cast<std::size_t>(task_->pixels()), rows = static_cast<std::size_t>(K) * kQueries;
  std::vector<float> strips(rows * P);
  std::vector<std::int32_t> queries(rows);
  for (int k = 0; k < K; ++k) {
    float* first = strips.data() + static_cast<std::size_t>(k) * kQueries * P;
    task_->Render(Split::kTest, k, 0, first);
    for (int q = 0; q < kQueries; ++q) {
      if (q > 0) std::copy_n(first, P, first + q * P);
      queries[k * kQueries + q] = q;
    }
  }
  QueryRollout<float> r;
  model_->Forward(strips.data(), queries.data(), static_cast<int>(rows), r, LocationMode::kMean, nullptr);
  const std::size_t k = static_cast<std::size_t>(K);
  file.AppendBlock<std::int64_t>("/attention/epoch", {}, &epoch);
  file.AppendBlock<float>("/attention/weights", {k, kQueries, StripSample::kSlots}, r.r.head.data());
  file.AppendBlock<std::int32_t>("/attention/prediction", {k, kQueries}, r.r.actions.data());
}

std::size_t QueryLearner::ExamplesLogged(const RunFile& file) const {
  return file.Exists("/attention/epoch") ? file.ReadArray<std::int64_t>("/attention/epoch").size() : 0;
}

void QueryLearner::TruncateExamples(RunFile& file, std::size_t count) {
  file.TruncateBlocks<std::int64_t>("/attention/epoch", count);
  file.TruncateBlocks<float>("/attention/weights", count);
  file.TruncateBlocks<std::int32_t>("/attention/prediction", count);
}

std::vector<std::string> QueryLearner::PolicyParams() const {
  if (!hard()) return {};
  std::vector<std::string> names = {"query.E", "attention.Wk.W"};
  if (model_->spec().score == ScoreKind::kAdditive) names.push_back("attention.v");
  return names;
}

LearnerKind QueryLearnerKind() {
  LearnerKind k;
  k.name = "query";
  k.help = "strip5's query-conditioned item attention over the five slots";
  k.make = [](const ExperimentConfig& c) { return std::make_unique<QueryLearner>(c); };
  return k;
}

}  // namespace glimpse
