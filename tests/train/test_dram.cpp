// DRAM's sequential agent (src/train/dram_agent.h) in the trainer: the per-object rewards to go on
// pairs100 and the answer's 0/1 on sum100, the composed answer, every registered sensor training on
// both two-digit tasks (the conformance test) with its trajectories, and the configurations it refuses.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "src/attention/attentions.h"
#include "src/train/config.h"
#include "src/train/dram_agent.h"
#include "src/train/trainer.h"
#include "tests/cli/cli_helpers.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

ExperimentConfig DramConfig(const std::string& env) {
  ExperimentConfig c;
  c.data_dir = WriteFakeDataDir(TempDir() + "/glimpse_dram_fake_data", 64, 24);
  c.env = env;
  c.agent = "dram";
  c.glimpses = 2;  // per object: T = 4
  c.patch = 8, c.scales = 2;
  c.hidden = 16, c.glimpse_hidden = 8;
  c.batch = 8, c.epochs = 1;
  c.val_images = 16, c.trajectories = 3, c.log_every = 4;
  c.threads = 1, c.seed = 3;
  return c;
}

}  // namespace

TEST_CASE("DRAM: each object's reward to go on pairs100, the answer's 0/1 on sum100", "[train][dram]") {
  for (const std::string env : {"pairs100", "sum100"}) {
    INFO(env);
    const ExperimentConfig cfg = DramConfig(env);
    Trainer t(cfg, nullptr, false);
    auto& agent = dynamic_cast<DramAgent&>(t.agent());
    CHECK(agent.objects() == 2);
    CHECK(agent.model().spec().steps == 4);
    const int N = 16;
    std::vector<std::int64_t> idx(N);
    for (int i = 0; i < N; ++i) idx[i] = i;
    Batch b;
    b.Resize(N, t.task().height(), t.task().width());
    RenderRows(t.task(), Split::kTrain, idx.data(), 0, N, 0, b);
    Rng rng(1, "policy");
    StepContext ctx;
    ctx.mode = LocationMode::kSample, ctx.rng = &rng;
    const AgentStep step = agent.Forward(b, ctx);
    const PolicyTrace<float>& tr = *step.trace;
    const int C = t.task().classes();
    REQUIRE(tr.logits.shape(1) == static_cast<std::size_t>(C));
    CHECK(tr.step_logits.shape(0) == 0);  // the estimator sees one answer per canvas
    for (int n = 0; n < N; ++n) {
      double total = 0;
      for (int c = 0; c < C; ++c) total += std::exp(tr.logits.data()[n * C + c]);
      CHECK(total == Approx(1.0).epsilon(1e-4));  // log-probabilities of the answers
      const float* z = tr.logits.data() + n * C;
      CHECK(step.answers[n] == std::max_element(z, z + C) - z);
    }
    if (env == "sum100") {
      CHECK(tr.reward_to_go.empty());
      continue;
    }
    REQUIRE(tr.reward_to_go.size() == 4u * N);
    // Object j's digit: the argmax of the answer's marginal over the other digit equals the argmax
    // of its own logits; here read off the answer itself (10 a + b names both).
    for (int n = 0; n < N; ++n) {
      const int a = step.answers[n] / 10, bb = step.answers[n] % 10;
      const int ta = b.labels[n] / 10, tb = b.labels[n] % 10;
      const double second = bb == tb ? 1 : 0, first = (a == ta ? 1 : 0) + second;
      for (int t_ = 0; t_ < 2; ++t_) CHECK(tr.reward_to_go[t_ * N + n] == first);
      for (int t_ = 2; t_ < 4; ++t_) CHECK(tr.reward_to_go[t_ * N + n] == second);
    }
  }
}

TEST_CASE("DRAM conformance: every registered attention trains on pairs100 and sum100", "[train][dram]") {
  for (const auto& kind : Attentions<float>())
    for (const std::string env : {"pairs100", "sum100"}) {
      INFO(kind.name << " on " << env);
      ExperimentConfig cfg = DramConfig(env);
      cfg.attention = kind.name;
      cfg.grid = 3;
      cfg.context = kind.name == "gaussian" ? 10 : 0;
      const std::string path = TempDir() + "/glimpse_test_dram.h5";
      std::remove(path.c_str());
      {
        RunFile file(path, RunFile::Mode::kCreate);
        Trainer t(cfg, &file, false);
        t.Run();
      }
      const RunFile f(path, RunFile::Mode::kReadOnly);
      for (double l : f.ReadSeries("/train", "loss")) CHECK(std::isfinite(l));
      const double e = f.ReadSeries("/eval", "test_error").back();
      CHECK((e >= 0 && e <= 1));
      const auto names = f.SeriesNames("/eval");
      CHECK((std::find(names.begin(), names.end(), "test_digit_error") != names.end()) == (env == "pairs100"));
      CHECK(f.Attributes("/").at("agent") == "dram");
    }
}

TEST_CASE("DRAM refuses the tasks and options it cannot serve", "[train][dram][cli]") {
  auto fails = [](ExperimentConfig c, const std::string& msg) {
    INFO(msg);
    CHECK_THROWS_WITH(Validate(c), Catch::Contains(msg));
  };
  ExperimentConfig c = DramConfig("pairs100");
  CHECK_NOTHROW(Validate(c));
  ExperimentConfig one = c;
  one.env = "cluttered100";
  fails(one, "has one (use --env pairs100 or sum100)");
  ExperimentConfig step = c;
  step.step_loss = 1;
  fails(step, "already classifies after each object's glimpses");
  ExperimentConfig dense = c;
  dense.reward = "dense";
  fails(dense, "--agent dram rewards each object it names");
  ExperimentConfig unknown = c;
  unknown.agent = "ram2";
  fails(unknown, "option --agent: expected image|query|dram");
}
