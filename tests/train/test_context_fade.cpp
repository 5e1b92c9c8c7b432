// --context-fade (ModelSpec::context_fade): the option's checks; the trainer's evaluations and glimpse
// eval's (Trainer::LoadWeights) see the fade at the same point of training; once it has faded out, the
// context network no longer changes what the model does. The formula itself: tests/model/test_context.cpp.
#include <catch2/catch.hpp>
#include <vector>

#include "envs/batch.h"
#include "src/core/rng.h"
#include "src/store/checkpoint.h"
#include "src/train/config.h"
#include "src/train/trainer.h"
#include "tests/train/small_run.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

ExperimentConfig FadeConfig(double fade) {
  ExperimentConfig c = SmallTrainConfig("glimpse_context_fade_fake_data");
  c.context = 4;
  c.context_fade = fade;
  return c;
}

// The logits of 4 fixed random 28 x 28 canvases, policy mean.
std::vector<float> Logits(Trainer& t) {
  Batch b;
  b.Resize(4, 28, 28);
  Rng rng(9, "test");
  for (float& p : b.images) p = static_cast<float>(rng.Uniform());
  StepContext ctx;
  ctx.inputs = t.inputs();  // as the run's evaluations are made
  const auto& logits = t.agent().Forward(b, ctx).trace->logits;
  return std::vector<float>(logits.data(), logits.data() + logits.size());
}

}  // namespace

TEST_CASE("Option --context-fade takes a fraction of training, and needs a context network", "[config][context]") {
  ExperimentConfig c = FadeConfig(0.5);
  CHECK_NOTHROW(Validate(c));
  c.context_fade = 1.5;
  CHECK_THROWS_WITH(Validate(c), Catch::Contains("option --context-fade: expected 0 (off) to 1"));
  c.context_fade = -0.1;
  CHECK_THROWS_WITH(Validate(c), Catch::Contains("option --context-fade"));
  c.context_fade = 0.5;
  c.context = 0;
  CHECK_THROWS_WITH(Validate(c), Catch::Contains("it needs --context N > 0"));
}

TEST_CASE("A faded context: glimpse eval's checkpoints reproduce the run's evaluations, and it is gone",
          "[train][context]") {
  // 3 epochs of 8 steps. Fading over 0.3 of training, every evaluation (after 8, 16, 24 steps) is made
  // at s = 0; fading over all of it, at s = 2/3, 1/3 and 0; without a fade, at s = 1.
  for (const double fade : {0.3, 1.0, 0.0}) {
    INFO("fade " << fade);
    const ExperimentConfig cfg = FadeConfig(fade);
    const std::string path = TempRunPath("context_fade");
    TrainRun(path, cfg);
    const RunFile file(path, RunFile::Mode::kReadOnly);
    const auto vals = file.ReadSeries("/eval", "val_error");
    REQUIRE(vals.size() == 3);
    double best_val = -1;
    LoadBestCheckpoint(file, &best_val);
    Trainer t(cfg, nullptr, false);
    t.LoadWeights(file, true);  // at the best checkpoint's step, so at its point of the fade
    CHECK(t.Evaluate(Split::kVal, 1, cfg.val_images).error == best_val);
    t.LoadWeights(file, false);
    CHECK(t.Evaluate(Split::kVal, 1, cfg.val_images).error == vals.back());
    // At the end of a faded run h_0 = 0: zeroing the context network leaves the logits as they were.
    // Without a fade it is used to the end, and zeroing it moves them.
    const std::vector<float> before = Logits(t);
    ParamStore<float>& store = t.agent().store();
    for (const auto& p : store.info())
      if (p.name.rfind("context.", 0) == 0)
        for (std::size_t i = 0; i < p.size; ++i) store.values()[p.offset + i] = 0;
    if (fade > 0)
      CHECK(Logits(t) == before);
    else
      CHECK(Logits(t) != before);
  }
}
