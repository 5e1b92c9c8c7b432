// Training end to end on a small fake data set: the run file layout, resume equals an uninterrupted
// run, and divergence stops the run while keeping the last good checkpoint.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>
#include <sstream>

#include "src/attention/attentions.h"
#include "src/core/blas.h"
#include "src/rl/baseline.h"
#include "src/rl/policies.h"
#include "src/store/checkpoint.h"
#include "src/train/trainer.h"
#include "tests/cli/cli_helpers.h"
#include "tests/envs/fake_data.h"
#include "tests/train/small_run.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

ExperimentConfig SmallConfig() { return SmallTrainConfig("glimpse_trainer_fake_data"); }

// Parameters after 5 training steps (plus Bench's warm-up step) of a run without a file.
std::vector<float> FinalParams(const ExperimentConfig& c) {
  Trainer t(c, nullptr, false);
  t.Bench(5);
  return std::vector<float>(t.store().values().begin(), t.store().values().end());
}

double MaxAbsDiff(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, static_cast<double>(std::abs(a[i] - b[i])));
  return worst;
}

struct StopAt {};  // thrown from on_step to imitate a kill

}  // namespace

TEST_CASE("A run file holds the configuration, series, trajectories and a checkpoint", "[train]") {
  const ExperimentConfig cfg = SmallConfig();
  const std::string path = TempRunPath("layout");
  {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.Run();
  }
  const RunFile f(path, RunFile::Mode::kReadOnly);
  const auto attrs = f.Attributes("/");
  for (const auto& spec : ConfigOptions()) CHECK(attrs.count(spec.name) == 1);
  CHECK(attrs.at("glimpses") == "2");
  CHECK(attrs.count("glimpse_version") == 1);
  CHECK(attrs.count("source_commit") == 1);
  CHECK(attrs.count("created_utc") == 1);
  // 64 training images / batch 8 = 8 steps per epoch; a row every 3 steps and at each epoch's end:
  // steps 3, 6, 8, 9, 12, 15, 16, 18, 21, 24.
  const std::size_t rows = f.SeriesLength("/train");
  CHECK(rows == 10);
  for (const char* s : {"step", "epoch", "images", "loss", "loss_action", "loss_reinforce", "loss_baseline", "reward",
                        "accuracy", "lr", "wall_s"})
    CHECK(f.ReadSeries("/train", s).size() == rows);
  CHECK(f.ReadSeries("/train", "step").back() == 24);
  CHECK(f.SeriesLength("/eval") == 3);
  for (double e : f.ReadSeries("/eval", "test_error")) CHECK((e >= 0 && e <= 1));
  std::vector<std::size_t> shape;
  f.ReadArray<float>("/trajectories/locations", &shape);
  CHECK(shape == std::vector<std::size_t>{3, 4, 2, 2});
  f.ReadArray<std::int32_t>("/trajectories/label", &shape);
  CHECK(shape == std::vector<std::size_t>{4});
  CHECK_FALSE(f.Exists("/trajectories/image"));  // the task renders the canvases again
  CHECK(HasCheckpoint(f));
  CHECK(LoadCheckpoint(f).epoch == 3);
  CHECK(LoadCheckpoint(f).step == 24);
}

TEST_CASE("A run stores its training products' FLOPs per image, as bench --profile counts them", "[train][flops]") {
  const ExperimentConfig cfg = SmallConfig();
  const std::string path = TempRunPath("flops");
  {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.Run();
  }
  const RunFile f(path, RunFile::Mode::kReadOnly);
  const auto attrs = f.Attributes("/");
  REQUIRE(attrs.count(kTrainMflopPerImage) == 1);
  const double stored = std::stod(attrs.at(kTrainMflopPerImage));
  // Bench counts the products of its steps after the warm-up one: the same per image.
  Trainer bench(cfg, nullptr, false);
  Profile profile;
  SetGemmAccounting(true);
  bench.Bench(3, &profile);
  const GemmStats stats = GetGemmStats();
  SetGemmAccounting(false);
  const double counted = stats.flops / (3.0 * cfg.batch) / 1e6;
  INFO("stored " << stored << " MFLOP per image, bench " << counted);
  CHECK(stored > 0);
  CHECK(std::abs(stored - counted) <= 1e-3 * counted + 5e-4);  // the attribute keeps 3 decimals
}

TEST_CASE("The trainer hands its messages to its Progress and prints nothing itself", "[train][progress]") {
  struct Recording : Progress {
    std::vector<std::string> lines;
    void Line(const std::string& text) override { lines.push_back(text); }
  } recording;
  const ExperimentConfig cfg = SmallConfig();
  const std::string path = TempRunPath("progress");
  std::ostringstream captured;
  std::streambuf* was = std::cout.rdbuf(captured.rdbuf());
  {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.set_progress(&recording);
    t.Run();
  }
  std::cout.rdbuf(was);
  CHECK(captured.str().empty());
  REQUIRE(recording.lines.size() >= 4);
  CHECK(recording.lines.front().rfind("training ", 0) == 0);
  CHECK(std::count_if(recording.lines.begin(), recording.lines.end(), [](const std::string& l) {
          return l.find(" done | val_error ") != std::string::npos;
        }) == cfg.epochs);
}

TEST_CASE("Resuming a stopped run gives the same run as never stopping", "[train][resume]") {
  const ExperimentConfig cfg = SmallConfig();
  const std::string whole = TempRunPath("whole"), parts = TempRunPath("parts");
  {
    RunFile file(whole, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.Run();
  }
  {
    // Stopped in the middle of epoch 2 (after its checkpoint of epoch 1 and some /train rows).
    RunFile file(parts, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.on_step = [](std::int64_t step) {
      if (step == 13) throw StopAt{};
    };
    CHECK_THROWS_AS(t.Run(), StopAt);
  }
  {
    RunFile file(parts, RunFile::Mode::kReadWrite);
    Trainer t(cfg, &file, true);
    CHECK(t.epoch() == 1);
    CHECK(t.step() == 8);
    t.Run();
  }
  const RunFile a(whole, RunFile::Mode::kReadOnly), b(parts, RunFile::Mode::kReadOnly);
  CHECK(LoadCheckpoint(a).params == LoadCheckpoint(b).params);
  for (const char* s : {"step", "loss", "loss_action", "loss_reinforce", "reward", "lr"}) {
    INFO(s);
    CHECK(a.ReadSeries("/train", s) == b.ReadSeries("/train", s));
  }
  CHECK(a.ReadSeries("/eval", "val_error") == b.ReadSeries("/eval", "val_error"));
  CHECK(a.ReadArray<float>("/trajectories/locations") == b.ReadArray<float>("/trajectories/locations"));
}

TEST_CASE("With grad-norms each module's gradient norm is logged and training is unchanged", "[train][grad-norms]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.log_every = 1;  // a row per step: the module norms of one gradient
  cfg.epochs = 1;
  ExperimentConfig with = cfg;
  with.grad_norms = true;
  const std::string plain = TempRunPath("norms_off"), logged = TempRunPath("norms_on");
  for (const auto& [c, path] : {std::pair{cfg, plain}, std::pair{with, logged}}) {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(c, &file, false);
    t.Run();
  }
  const RunFile a(plain, RunFile::Mode::kReadOnly), b(logged, RunFile::Mode::kReadOnly);
  CHECK(a.ReadSeries("/train", "loss") == b.ReadSeries("/train", "loss"));  // bit for bit
  CHECK(LoadCheckpoint(a).params == LoadCheckpoint(b).params);
  const auto names = b.SeriesNames("/train");
  for (const char* m : {"glimpse", "core", "location", "action", "baseline"})
    CHECK(std::count(names.begin(), names.end(), std::string("grad_norm_") + m) == 1);
  CHECK(a.SeriesNames("/train").size() + 5 == names.size());  // nothing else changes
  // The modules partition the parameters: their norms make the whole gradient's.
  const auto whole = b.ReadSeries("/train", "grad_norm");
  for (std::size_t r = 0; r < whole.size(); ++r) {
    double sq = 0;
    for (const auto& n : names)
      if (n.rfind("grad_norm_", 0) == 0) {
        const double v = b.ReadSeries("/train", n)[r];
        CHECK((std::isfinite(v) && v >= 0));
        sq += v * v;
      }
    CHECK(std::sqrt(sq) == Approx(whole[r]).epsilon(1e-5));
    CHECK(whole[r] > 0);
  }
}

TEST_CASE("The same seed and thread count give the same run - another seed does not", "[train]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.epochs = 1;
  CHECK(FinalParams(cfg) == FinalParams(cfg));
  ExperimentConfig other = cfg;
  other.seed = 6;
  CHECK(FinalParams(cfg) != FinalParams(other));
}

TEST_CASE("Data-parallel threads give a reproducible run that follows the one-thread run", "[train][sharded]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.epochs = 1;
  ExperimentConfig two = cfg;
  two.threads = 2;  // --parallel data: two replicas, four rows each
  const std::vector<float> a = FinalParams(two), one = FinalParams(cfg);
  CHECK(a == FinalParams(two));
  // Same draws, gradients summed in another order: after 6 Adam steps the parameters differ by
  // float rounding only (a changed draw or a lost shard moves them by ~1e-3, Adam's step size).
  CHECK(MaxAbsDiff(a, one) < 1e-5);
  ExperimentConfig blas = two;
  blas.parallel = "blas";
  CHECK(MaxAbsDiff(FinalParams(blas), one) < 1e-5);
}

TEST_CASE("A diverging run stops with a clear message and keeps its last good checkpoint", "[train]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.optimizer = "sgd";
  cfg.kind_options["momentum"] = "0";  // sgd's own option
  cfg.lr = 1e30;                       // the first update overflows every weight
  const std::string path = TempRunPath("nan");
  {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    CHECK_THROWS_WITH(t.Run(), Catch::Contains("diverged") && Catch::Contains("--lr"));
  }
  const RunFile f(path, RunFile::Mode::kReadOnly);
  CHECK_THAT(f.Attributes("/").at("stopped_reason"), Catch::Contains("NaN or inf"));
  REQUIRE(HasCheckpoint(f));  // the initial one: nothing good was reached after it
  CHECK(LoadCheckpoint(f).epoch == 0);
  for (float v : LoadCheckpoint(f).params) REQUIRE(std::isfinite(v));
}

TEST_CASE("On NaN, rollback mode reloads the last checkpoint with half the learning rate", "[train]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.optimizer = "sgd";
  cfg.kind_options["momentum"] = "0";  // sgd's own option
  cfg.lr = 1e6;
  cfg.on_nan = "rollback";
  cfg.max_rollbacks = 60;
  cfg.epochs = 2;
  const std::string path = TempRunPath("rollback");
  {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.Run();  // diverges, rolls back until the learning rate is small enough, then finishes
  }
  const RunFile f(path, RunFile::Mode::kReadOnly);
  const auto attrs = f.Attributes("/");
  REQUIRE(attrs.count("rollback_1") == 1);
  CHECK_THAT(attrs.at("rollback_1"), Catch::Contains("rolled back to the checkpoint of epoch 0"));
  CHECK(attrs.count("stopped_reason") == 0);
  const Checkpoint c = LoadCheckpoint(f);
  CHECK(c.epoch == 2);
  CHECK(c.scalars.at("lr_scale") < 1.0);
  for (double l : f.ReadSeries("/train", "loss")) CHECK(std::isfinite(l));
  // Stopping after the allowed number of rollbacks.
  cfg.max_rollbacks = 2;
  RunFile file(TempRunPath("rollback2"), RunFile::Mode::kCreate);
  Trainer t(cfg, &file, false);
  CHECK_THROWS_WITH(t.Run(), Catch::Contains("diverged"));
  CHECK(file.Attributes("/").count("rollback_2") == 1);
}

TEST_CASE("Gradient-norm clipping bounds the update", "[train]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.optimizer = "sgd";
  cfg.kind_options["momentum"] = "0";  // sgd's own option
  cfg.lr = 1.0;
  cfg.clip = 1e-3;
  Trainer t(cfg, nullptr, false);
  const std::vector<float> before(t.store().values().begin(), t.store().values().end());
  t.Bench(0);  // the warm-up step is one update
  double sq = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    const double d = t.store().values()[i] - before[i];
    sq += d * d;
  }
  CHECK(std::sqrt(sq) == Approx(1e-3).epsilon(1e-3));  // lr 1 x clipped gradient of norm 1e-3
}

TEST_CASE("Evaluation with M > 1 samples is reproducible and M = 1 uses the policy mean", "[train]") {
  ExperimentConfig cfg = SmallConfig();
  Trainer t(cfg, nullptr, false);
  t.Bench(4);
  const EvalResult a = t.Evaluate(Split::kTest, 4, 1000), b = t.Evaluate(Split::kTest, 4, 1000);
  CHECK(a.error == b.error);
  CHECK(a.images == 24);
  CHECK(a.samples == 4);
  CHECK(t.Evaluate(Split::kVal, 1, 16).images == 16);
}

TEST_CASE("Every estimator trains - diagnostics land in /diagnostics", "[train][estimator]") {
  // Every registered hard attention with every registered baseline (the self-critical one where
  // the policy has a greedy location), the other estimator options (reward normalisation, entropy
  // bonus, semi-sampling) switched on in turn; then the learned-std policy and the dense reward
  // with the auxiliary step loss, with every baseline.
  struct Variant {
    std::string attention, baseline;
    int samples;
    bool reward_norm;
    double entropy, semi;
    std::string policy = "", reward = "terminal";
  };
  std::vector<Variant> variants;
  for (const auto& a : Attentions<float>())
    for (const BaselineKind& b : Baselines())
      if (a.hard()) {
        const auto policy = Policies<float>().Get(a.policy).make(Settings{}, 4);
        if (b.make(2)->greedy() && !policy->has_mean()) continue;  // no greedy episode to compare with
        const bool draws = policy->noise_size() > 0;  // a policy that always looks at the same place: M = 1
        if (!draws && b.validate) continue;           // (loo needs M >= 2)
        const int i = static_cast<int>(variants.size());
        variants.push_back(
            {a.name, b.name, draws ? 2 + i % 2 : 1, i % 2 == 1, i % 3 == 0 ? 0.01 : 0.0, i % 4 == 3 ? 0.5 : 0.0});
      }
  for (const BaselineKind& b : Baselines()) {
    variants.push_back({"gaussian", b.name, 2, false, 0.01, 0.0, "learned-std"});
    variants.push_back({"gaussian", b.name, 2, b.name == "average", 0.0, 0.0, "", "dense"});
  }
  REQUIRE(variants.size() >= 8);
  for (const auto& v : variants) {
    INFO(v.attention << " " << v.baseline << " " << v.policy << " " << v.reward);
    ExperimentConfig cfg = SmallConfig();
    cfg.policy = v.policy;
    cfg.reward = v.reward;
    cfg.step_loss = v.reward == "dense" ? 1.0 : 0.0;
    cfg.epochs = 1;
    cfg.attention = v.attention;
    cfg.grid = 3;
    cfg.baseline = v.baseline;
    cfg.samples = v.samples;
    cfg.reward_norm = v.reward_norm;
    cfg.entropy = v.entropy;
    cfg.semi_sampling = v.semi;
    cfg.diag_every = 4;
    cfg.diag_draws = 5;
    const std::string path = TempRunPath("estimator");
    {
      RunFile file(path, RunFile::Mode::kCreate);
      Trainer t(cfg, &file, false);
      t.Run();
    }
    const RunFile f(path, RunFile::Mode::kReadOnly);
    CHECK(f.SeriesLength("/diagnostics") == 2);  // steps 4 and 8
    for (double g : f.ReadSeries("/diagnostics", "grad_var")) CHECK((std::isfinite(g) && g >= 0));
    for (double e : f.ReadSeries("/diagnostics", "entropy")) CHECK(std::isfinite(e));
    for (double l : f.ReadSeries("/train", "loss")) CHECK(std::isfinite(l));
    if (cfg.step_loss > 0)
      for (double l : f.ReadSeries("/train", "loss_step")) CHECK((std::isfinite(l) && l > 0));
    if (v.attention == "categorical")  // uniform-ish over 9 cells at the start
      CHECK(f.ReadSeries("/diagnostics", "entropy")[0] > 1.5);
  }
}

TEST_CASE("Gradient variance falls with a leave-one-out baseline on the same probe batch", "[train][estimator]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.samples = 4;
  cfg.batch = 64;  // enough images that some are classified right by the untrained model
  cfg.baseline = "none";
  Trainer a(cfg, nullptr, false);
  cfg.baseline = "loo";
  Trainer b(cfg, nullptr, false);
  // Same seed: same parameters and the same draws; only the baseline differs.
  const double va = a.MeasureGradientVariance(32).grad_var, vb = b.MeasureGradientVariance(32).grad_var;
  CHECK(va > 0);
  CHECK(vb < va);
}

TEST_CASE("The first losses of a fixed-seed run are pinned (speed work must not change the math)", "[train][pinned]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.epochs = 1;
  cfg.log_every = 1;
  cfg.core = "lstm";  // covers the vectorised gate math too
  const std::string path = TempRunPath("pinned");
  {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.Run();
  }
  const RunFile f(path, RunFile::Mode::kReadOnly);
  const auto loss = f.ReadSeries("/train", "loss");
  const auto action = f.ReadSeries("/train", "loss_action");
  REQUIRE(loss.size() == 8);
  // Recorded from this code on the development machine (x86-64, OpenBLAS 0.3.21). The tolerance
  // admits BLAS kernels that sum in another order, not a change of the computation.
  const double want_loss[4] = {2.601257493721791, 1.4287338475182307, 1.8390111172510635, 2.1950371146311425};
  const double want_action[4] = {2.327313566774746, 2.2683640847063553, 2.313236525587649, 2.2348900593442664};
  for (int i = 0; i < 4; ++i) {
    INFO("step " << i + 1);
    CHECK(loss[i] == Approx(want_loss[i]).epsilon(1e-4));
    CHECK(action[i] == Approx(want_action[i]).epsilon(1e-4));
  }
}

TEST_CASE("Differentiable attention trains end to end and logs its read parameters", "[train][differentiable]") {
  for (const auto& registered : Attentions<float>()) {
    if (registered.hard()) continue;
    const std::string kind = registered.name;
    INFO(kind);
    ExperimentConfig cfg = SmallConfig();
    cfg.epochs = 1;
    cfg.attention = kind;
    cfg.grid = 3;
    cfg.attention_dim = 8;
    cfg.patch = 5;
    cfg.scales = 2;
    const std::string path = TempRunPath("differentiable");
    {
      RunFile file(path, RunFile::Mode::kCreate);
      Trainer t(cfg, &file, false);
      const std::vector<float> before(t.store().values().begin(), t.store().values().end());
      t.Run();
      // The read network moved: the classification loss reaches it through the reads.
      const auto& st = t.store();
      const ParamInfo& w = st.info(st.Find("location.fc.W"));
      double moved = 0;
      for (std::size_t i = 0; i < w.size; ++i) moved += std::abs(st.values()[w.offset + i] - before[w.offset + i]);
      CHECK(moved > 0);
    }
    const RunFile f(path, RunFile::Mode::kReadOnly);
    std::vector<std::size_t> shape;
    f.ReadArray<float>("/trajectories/read_params", &shape);
    const auto P = static_cast<std::size_t>(MakeSensor(registered, cfg, 28, 28)->param_size());
    CHECK(shape == std::vector<std::size_t>{1, 4, 2, P});
    for (double l : f.ReadSeries("/train", "loss")) CHECK(std::isfinite(l));
  }
  ExperimentConfig bad = SmallConfig();
  bad.attention = "stn";
  bad.samples = 2;
  CHECK_THROWS_WITH(Validate(bad), Catch::Contains("reads deterministically"));
  // A differentiable read has no REINFORCE signal to send into the core.
  bad = SmallConfig();
  bad.attention = "draw";
  bad.rl_into_core = true;
  CHECK_THROWS_WITH(Validate(bad), Catch::Contains("--rl-into-core"));
  bad.attention = "gaussian";
  CHECK_NOTHROW(Validate(bad));
}

TEST_CASE("A run started with --init-from takes another run's validation-selected parameters", "[train][init-from]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.epochs = 2;
  const std::string source = TempRunPath("init_source");
  {
    RunFile file(source, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.Run();
  }
  const RunFile read(source, RunFile::Mode::kReadOnly);
  const Checkpoint best = LoadBestCheckpoint(read);
  ExperimentConfig next = cfg;
  next.seed = 7;  // another random draw: only --init-from can make the parameters equal
  next.init_from = source;
  const std::string path = TempRunPath("init_target");
  {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(next, &file, false);
    REQUIRE(t.store().size() == best.params.size());
    for (std::size_t i = 0; i < best.params.size(); ++i) REQUIRE(t.store().values()[i] == best.params[i]);
  }
  {
    const RunFile f(path, RunFile::Mode::kReadOnly);
    CHECK(f.Attributes("/").at("init-from") == source);
    CHECK(f.Attributes("/").at("init_from_params").rfind("best crc32:", 0) == 0);
  }
  // Another model: refused with the reason.
  ExperimentConfig other = next;
  other.hidden = 12;
  RunFile file(TempRunPath("init_bad"), RunFile::Mode::kCreate);
  CHECK_THROWS_WITH(Trainer(other, &file, false), Catch::Contains("need the same model options"));
  // Another glimpse network (the source is fc): more tensors of other shapes, refused the same way.
  other = next;
  other.glimpse_net = "conv";
  RunFile conv_file(TempRunPath("init_bad_conv"), RunFile::Mode::kCreate);
  CHECK_THROWS_WITH(Trainer(other, &conv_file, false), Catch::Contains("need the same model options"));
}

TEST_CASE("pairs100 evaluations record the per-digit and unordered-pair errors beside the sequence error",
          "[train][two-digits]") {
  ExperimentConfig cfg = SmallConfig();
  cfg.env = "pairs100";
  cfg.epochs = 1;
  const std::string path = TempRunPath("pairs");
  {
    RunFile file(path, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.Run();
  }
  const RunFile f(path, RunFile::Mode::kReadOnly);
  const double sequence = f.ReadSeries("/eval", "test_error")[0], digit = f.ReadSeries("/eval", "test_digit_error")[0];
  // A wrong pair has one or two wrong digits: half the sequence error <= the digit error <= it.
  CHECK(digit <= sequence);
  CHECK(digit >= sequence / 2);
  CHECK(digit > 0);
  // The unordered-pair error, counted again here from the answers and labels Evaluate returns: an
  // answer is right as a set when its two digits are the label's in either order.
  Trainer t(cfg, nullptr, false);
  t.LoadWeights(f, false);
  const EvalResult r = t.Evaluate(Split::kTest, 1, 2000);
  int wrong_sets = 0, wrong_sequences = 0;
  for (std::size_t i = 0; i < r.answers.size(); ++i) {
    int a[2], l[2];
    REQUIRE(t.task().Decode(r.answers[i], a) == 2);
    REQUIRE(t.task().Decode(r.labels[i], l) == 2);
    wrong_sets += !((a[0] == l[0] && a[1] == l[1]) || (a[0] == l[1] && a[1] == l[0]));
    wrong_sequences += r.answers[i] != r.labels[i];
  }
  REQUIRE(r.extra.count("unordered_error"));
  const double n = static_cast<double>(r.answers.size());
  REQUIRE(n > 0);
  CHECK(r.extra.at("unordered_error") == Approx(wrong_sets / n).margin(1e-12));
  CHECK(r.error == Approx(wrong_sequences / n).margin(1e-12));
  CHECK(wrong_sets <= wrong_sequences);
  CHECK(wrong_sets > 0);
  const auto stored = f.ReadSeries("/eval", "test_unordered_error");
  CHECK(stored.size() == 1);
}

TEST_CASE("A Trainer flushes subnormals while it lives (--denormals) and gives the caller its mode back",
          "[train][denormals]") {
  if (!CanFlushDenormals()) return;
  const DenormalMode caller(false);
  for (const std::string mode : {"flush", "keep"}) {
    ExperimentConfig c = SmallConfig();
    c.denormals = mode;
    {
      Trainer t(c, nullptr, false);
      CHECK(FlushingDenormals() == (mode == "flush"));
      t.Bench(2);
      CHECK(FlushingDenormals() == (mode == "flush"));
    }
    CHECK_FALSE(FlushingDenormals());
  }
  // Both modes train the small model to finite, nearly equal parameters (nothing here is that small).
  ExperimentConfig keep = SmallConfig();
  keep.denormals = "keep";
  const auto a = FinalParams(keep), b = FinalParams(SmallConfig());
  CHECK(MaxAbsDiff(a, b) < 1e-4);
}
