// Data parallelism (ShardedModel, WorkerPool): shards must give the single model's rollout and
// gradients, for every policy, core and sensor kind. The draws are the same numbers; values agree
// to rounding only, because OpenBLAS may round a row's product differently when the matrix has
// another number of rows (its kernels for the leftover rows of a block differ).
#include <atomic>
#include <catch2/catch.hpp>
#include <stdexcept>

#include "src/attention/attentions.h"
#include "src/core/blas.h"
#include "src/core/worker_pool.h"
#include "src/model/cores.h"
#include "src/model/sharded_model.h"
#include "src/rl/estimator.h"
#include "src/train/make_kinds.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

constexpr int kH = 16, kW = 16;

struct Kind {
  std::string attention;  // a registered attention
  std::string core;       // a registered core
  bool step = false;      // classify after every glimpse (--step-loss 0.5; hard kinds: --reward dense)
};

std::unique_ptr<AttentionModel<double>> MakeModel(const Kind& k) {
  ModelSpec spec;
  spec.steps = 3;
  spec.glimpse_hidden = 7;
  spec.hidden = 9;
  spec.classes = 4;
  spec.core = k.core;
  spec.step_logits = k.step;
  ExperimentConfig cfg;
  cfg.attention = k.attention;
  cfg.patch = 4, cfg.scales = 2, cfg.grid = 3, cfg.attention_dim = 5;
  cfg.kind_options["std"] = "0.2";
  return MakeAttentionModel<double>(spec, cfg, kH, kW);
}

// Every registered attention, each with a registered core in turn.
std::vector<Kind> AllKinds() {
  std::vector<Kind> kinds;
  const auto cores = Cores<double>().Names();
  for (const auto& a : Attentions<double>()) kinds.push_back({a.name, cores[kinds.size() % cores.size()]});
  kinds.push_back({"gaussian", "lstm", true});  // step logits with dense rewards, and through reads
  kinds.push_back({"draw", "rnn", true});
  return kinds;
}

// One training step's outputs: the rollout's loss-facing fields and the gradients.
struct StepResult {
  std::vector<double> head, loc, baseline, logits, step_logits, grads;
  std::vector<std::int32_t> choice, actions;
};

StepResult TrainStep(const Kind& k, int shards, int rows, LocationMode mode) {
  std::vector<std::unique_ptr<AttentionModel<double>>> replicas;
  for (int s = 0; s < shards; ++s) replicas.push_back(MakeModel(k));
  Rng init(5, "init");
  replicas[0]->Init(init);  // replicas 1.. keep their zero parameters: Forward must copy them
  WorkerPool pool(static_cast<int>(replicas.size()) - 1);
  ShardedModel<double> model(std::move(replicas), pool);
  Rng data(6, "data");
  std::vector<double> images(static_cast<std::size_t>(rows) * kH * kW);
  for (auto& p : images) p = data.Uniform();
  std::vector<std::int32_t> labels(rows);
  std::vector<double> reward(rows);
  for (int n = 0; n < rows; ++n) labels[n] = n % 4, reward[n] = n % 3 == 0;
  Rollout<double> r;
  Rng policy(7, "policy");
  model.Forward(images.data(), rows, kH, kW, r, mode, &policy, /*semi_sampling=*/0.3);
  EstimatorConfig ec;
  ec.reward_norm = true;  // a batch-level estimator: needs the whole batch gathered
  if (k.step) {
    ec.step_loss = 0.5;
    if (model.model().policy()) ec.reward = "dense";
  }
  Estimator<double> est(ec, model.model().policy());
  est.Compute(r, labels.data(), reward.data(), r);
  model.store().ZeroGrad();
  model.Backward(r);
  StepResult out;
  out.head.assign(r.head.begin(), r.head.end());
  out.loc.assign(r.loc.begin(), r.loc.end());
  out.baseline.assign(r.baseline.begin(), r.baseline.end());
  out.logits.assign(r.logits.begin(), r.logits.end());
  out.step_logits.assign(r.step_logits.begin(), r.step_logits.end());
  out.grads.assign(model.store().grads().begin(), model.store().grads().end());
  out.choice = r.choice;
  out.actions = r.actions;
  return out;
}

double MaxDiff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

}  // namespace

TEST_CASE("WorkerPool runs every task once per round and rethrows a task's exception", "[core][threads]") {
  WorkerPool pool(2);
  std::vector<std::atomic<int>> hits(3);
  for (int round = 0; round < 200; ++round) {
    const int tasks = 1 + round % 3;
    pool.Run(tasks, [&](int t) { hits[t].fetch_add(1); });
  }
  // rounds with 1, 2, 3 tasks alternate: task 0 every round, task 1 in 2/3, task 2 in 1/3 of them
  CHECK(hits[0].load() == 200);
  CHECK(hits[1].load() == 133);
  CHECK(hits[2].load() == 66);
  CHECK_THROWS_WITH(pool.Run(3,
                             [](int t) {
                               if (t == 2) throw std::runtime_error("task 2 failed");
                             }),
                    "task 2 failed");
  int after = 0;
  pool.Run(1, [&](int) { ++after; });  // still usable
  CHECK(after == 1);
  CHECK_THROWS(pool.Run(4, [](int) {}));
}

TEST_CASE("Shards give the single model's rollout and gradients", "[model][sharded]") {
  SetBlasThreads(1);
  for (const Kind& k : AllKinds()) {
    for (LocationMode mode : {LocationMode::kSample, LocationMode::kMean}) {
      const StepResult one = TrainStep(k, 1, 7, mode);
      for (int shards : {2, 3}) {
        INFO(k.attention << " " << k.core << (k.step ? " with step logits" : "") << ", " << shards << " shards, mode "
                         << static_cast<int>(mode));
        const StepResult many = TrainStep(k, shards, 7, mode);  // 7 rows: unequal shards
        // The same draws: the same choices, and values equal to rounding.
        CHECK(many.choice == one.choice);
        CHECK(many.actions == one.actions);
        CHECK(MaxDiff(many.head, one.head) <= 1e-13);
        CHECK(MaxDiff(many.loc, one.loc) <= 1e-13);
        CHECK(MaxDiff(many.baseline, one.baseline) <= 1e-13);
        CHECK(MaxDiff(many.logits, one.logits) <= 1e-13);
        CHECK(one.step_logits.size() == (k.step ? 3u * 7 * 4 : 0u));
        CHECK(MaxDiff(many.step_logits, one.step_logits) <= 1e-13);
        // Gradients: sums over rows in another grouping.
        double scale = 0;
        for (double g : one.grads) scale = std::max(scale, std::abs(g));
        CHECK(scale > 0);
        CHECK(MaxDiff(many.grads, one.grads) <= 1e-12 * scale);
      }
    }
  }
}

TEST_CASE("More shards than rows leave the extra replicas idle", "[model][sharded]") {
  SetBlasThreads(1);
  const Kind k{"gaussian", "rnn"};
  const StepResult one = TrainStep(k, 1, 2, LocationMode::kSample);
  const StepResult many = TrainStep(k, 3, 2, LocationMode::kSample);
  CHECK(MaxDiff(many.logits, one.logits) <= 1e-13);
  CHECK(MaxDiff(many.loc, one.loc) <= 1e-13);
}
