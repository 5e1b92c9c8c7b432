// --average (src/core/weight_average.h): the moving average itself, that keeping it never changes
// training, that /best holds the average its validation error was measured on, and resume.
#include <catch2/catch.hpp>

#include "src/core/weight_average.h"
#include "src/store/checkpoint.h"
#include "src/train/config.h"
#include "src/train/trainer.h"
#include "tests/train/small_run.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

ExperimentConfig SmallConfig(double average) {
  ExperimentConfig c = SmallTrainConfig("glimpse_average_fake_data");
  c.average = average;
  return c;
}

struct StopAt {};

}  // namespace

TEST_CASE("WeightAverage moves by 1 - decay of the gap each update", "[core][average]") {
  WeightAverage<double> avg(3, 0.75);
  const double p0[3] = {1, -2, 4};
  avg.Reset(p0);
  const double p1[3] = {5, 2, 4};
  avg.Update(p1);  // a = 0.75 p0 + 0.25 p1
  CHECK(avg.values()(0) == Approx(2.0));
  CHECK(avg.values()(1) == Approx(-1.0));
  CHECK(avg.values()(2) == Approx(4.0));
  avg.Update(p1);  // 0.75 a + 0.25 p1
  CHECK(avg.values()(0) == Approx(2.75));
  CHECK(avg.values()(1) == Approx(-0.25));
  WeightAverage<double> last(3, 0.0);  // decay 0: the last parameters
  last.Reset(p0);
  last.Update(p1);
  CHECK(last.values()(1) == 2.0);
  CHECK_THROWS_WITH(WeightAverage<double>(3, 1.0), Catch::Contains("decay must be in [0, 1)"));
}

TEST_CASE("Option --average takes 0 (off) or a decay below 1", "[config][average]") {
  ExperimentConfig c = SmallConfig(0.999);
  CHECK_NOTHROW(Validate(c));
  c.average = 1.0;
  CHECK_THROWS_WITH(Validate(c), Catch::Contains("option --average: expected 0 (off) or a decay in (0, 1)"));
  c.average = -0.1;
  CHECK_THROWS_WITH(Validate(c), Catch::Contains("option --average"));
}

TEST_CASE("Keeping a parameter average never changes training, and the training parameters are evaluated as *_raw",
          "[train][average]") {
  const std::string plain = TempRunPath("average_plain"), averaged = TempRunPath("average_averaged");
  TrainRun(plain, SmallConfig(0));
  TrainRun(averaged, SmallConfig(0.9));
  const RunFile a(plain, RunFile::Mode::kReadOnly), b(averaged, RunFile::Mode::kReadOnly);
  CHECK(LoadCheckpoint(a).params == LoadCheckpoint(b).params);
  CHECK(a.ReadSeries("/train", "loss") == b.ReadSeries("/train", "loss"));
  CHECK(a.ReadSeries("/eval", "val_error") == b.ReadSeries("/eval", "val_error_raw"));
  CHECK(a.ReadSeries("/eval", "test_error") == b.ReadSeries("/eval", "test_error_raw"));
  CHECK_FALSE(a.Exists("/eval/val_error_raw"));
  // The average is another parameter set: it lags the training parameters.
  const Checkpoint last = LoadCheckpoint(b);
  REQUIRE(last.optimizer.count("average") == 1);
  CHECK(last.optimizer.at("average") != last.params);
  CHECK(b.Attributes("/").at("average") == "0.9");
}

TEST_CASE("/best holds the parameter average whose validation error selected it", "[train][average]") {
  ExperimentConfig cfg = SmallConfig(0.9);
  cfg.epochs = 1;  // one evaluation: /best is the average of the last checkpoint
  const std::string path = TempRunPath("average_best");
  TrainRun(path, cfg);
  const RunFile file(path, RunFile::Mode::kReadOnly);
  double val_error = -1;
  const Checkpoint best = LoadBestCheckpoint(file, &val_error);
  const auto vals = file.ReadSeries("/eval", "val_error");
  CHECK(val_error == *std::min_element(vals.begin(), vals.end()));
  Trainer t(cfg, nullptr, false);
  t.LoadWeights(file, true);
  CHECK(t.Evaluate(Split::kVal, 1, cfg.val_images).error == val_error);
  const Checkpoint last = LoadCheckpoint(file);
  CHECK(best.params == last.optimizer.at("average"));
  CHECK(best.params != last.params);
}

TEST_CASE("A run with --average resumes to the same run as never stopping", "[train][average][resume]") {
  const ExperimentConfig cfg = SmallConfig(0.9);
  const std::string whole = TempRunPath("average_whole"), parts = TempRunPath("average_parts");
  TrainRun(whole, cfg);
  {
    RunFile file(parts, RunFile::Mode::kCreate);
    Trainer t(cfg, &file, false);
    t.on_step = [](std::int64_t step) {
      if (step == 13) throw StopAt{};  // in the middle of epoch 2
    };
    CHECK_THROWS_AS(t.Run(), StopAt);
  }
  {
    RunFile file(parts, RunFile::Mode::kReadWrite);
    Trainer t(cfg, &file, true);
    REQUIRE(t.epoch() == 1);
    t.Run();
  }
  const RunFile a(whole, RunFile::Mode::kReadOnly), b(parts, RunFile::Mode::kReadOnly);
  CHECK(LoadCheckpoint(a).optimizer.at("average") == LoadCheckpoint(b).optimizer.at("average"));
  CHECK(LoadBestCheckpoint(a).params == LoadBestCheckpoint(b).params);
  CHECK(a.ReadSeries("/eval", "val_error") == b.ReadSeries("/eval", "val_error"));
  CHECK(a.ReadSeries("/eval", "val_error_raw") == b.ReadSeries("/eval", "val_error_raw"));
}
