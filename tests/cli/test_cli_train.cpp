// The train / eval / bench command-line contract (docs/cli.md) on a small fake data set.
#include <hdf5.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "src/core/blas.h"
#include "src/core/denormals.h"
#include "src/store/checkpoint.h"
#include "src/store/file_checksum.h"
#include "src/store/run_file.h"
#include "tests/cli/cli_helpers.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

const std::string& Data() {
  static const std::string dir = WriteFakeDataDir(TempDir() + "/glimpse_cli_train_data", 64, 24);
  return dir;
}

std::string Small() { return TinyRun(Data()); }

}  // namespace

TEST_CASE("train writes a run that eval reads back - last lines follow the contract", "[cli][train]") {
  const std::string run = TempDir() + "/glimpse_cli_run.h5";
  std::remove(run.c_str());
  auto r = RunGlimpse("train --out " + run + " --epochs 1" + Small());
  REQUIRE(r.code == 0);
  const std::string final_line = LastLine(r.output);
  CHECK(final_line.rfind("test_error=", 0) == 0);
  r = RunGlimpse("eval --run " + run);
  CHECK(r.code == 0);
  CHECK(LastLine(r.output) == final_line);  // eval prints what training ended with
  CHECK_THAT(r.output, Catch::Contains("policy mean"));
  r = RunGlimpse("eval --run " + run + " --split val --samples 3");
  CHECK(r.code == 0);
  CHECK(LastLine(r.output).rfind("val_error=", 0) == 0);
  CHECK_THAT(r.output, Catch::Contains("averaged over the sampled episodes (seeded), M = 3"));

  SECTION("an existing --out is refused without --force") {
    r = RunGlimpse("train --out " + run + " --epochs 1" + Small());
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::Contains("--force"));
    CHECK(RunGlimpse("eval --run " + run).code == 0);  // untouched
  }
  SECTION("--resume continues to more epochs; options that define the run cannot change") {
    r = RunGlimpse("train --resume " + run + " --epochs 2");
    CHECK(r.code == 0);
    CHECK_THAT(r.output, Catch::Contains("resuming") && Catch::Contains("epoch 2/2 done"));
    r = RunGlimpse("train --resume " + run + " --glimpses 3");
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::Contains("--glimpses cannot change when resuming"));
  }
}

TEST_CASE("train warns about a kind option that the run's kinds do not read", "[cli][train]") {
  const std::string run = TempDir() + "/glimpse_cli_unread.h5";
  std::remove(run.c_str());
  auto r = RunGlimpse("train --out " + run + " --epochs 1 --optimizer sgd --weight-decay 0.01 --force" + Small());
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains(
                           "warning: --weight-decay 0.01 is not read by this run's kinds (only by --optimizer adam)"));
  r = RunGlimpse("train --out " + run + " --epochs 1 --weight-decay 0.01 --force" + Small());
  CHECK(r.code == 0);
  CHECK_THAT(r.output, !Catch::Contains("warning"));
}

TEST_CASE("train refuses impossible configurations before creating any file", "[cli][train]") {
  const std::string run = TempDir() + "/glimpse_cli_bad.h5";
  std::remove(run.c_str());
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"--glimpses 0", "option --glimpses"},
      {"--patch 200", "option --patch"},
      {"--std -1", "option --std"},
      {"--scales 0", "option --scales"},
      {"--batch 0", "option --batch"},
      {"--core gru", "expected rnn|lstm"},
      {"--glimpses two", "expected a whole number"},
      {"--env mnist99", "option --env"},
      {"--seed -1", "option --seed: expected a whole number of at least 0"},
      {"--context 29", "option --context: expected 0 (off) to 28"},
      {"--env strip5 --attention soft --context 4", "strip5's query model has no context network"},
      {"--attention stn --stn-sampler nearest", "option --stn-sampler"},
      {"--attention centre --samples 4", "always looks at the same places"},
      {"--attention soft --policy categorical", "--policy goes with --attention gaussian"},
      {"--policy beta", "option --policy: expected gaussian|categorical|learned-std"},
      {"--reward dense", "give --step-loss"},
      {"--attention draw --reward dense --step-loss 1", "has no location policy for a reward to train"},
      {"--reward dense --step-loss 1 --discount 2", "option --discount: expected a number in [0, 1]"},
      {"--env strip5 --attention soft --step-loss 1", "answers once, after its last step"},
      {"--attention random --baseline self-critical", "policy has none"},
      {"--attention gumbel --gumbel-tau 0", "option --gumbel-tau"},
      {"--attention pathwise --read-std -1", "option --read-std"},
      {"--glimpse-net cnn", "option --glimpse-net: expected fc|conv"},
      {"--glimpse-net conv --conv-filters 0", "option --conv-filters: expected a whole number in [1, 1024]"},
      {"--env strip5 --attention soft --glimpse-net conv", "strip5's query model reads whole slots"},
      {"--env strip5 --attention soft --agent image", "asks about a query digit, which only --agent query reads"},
      {"--env cluttered60 --agent query", "--env cluttered60 has no query for it to read"},
      {"--env strip5 --attention soft --agent dram", "asks about a query digit"},
  };
  for (const auto& [opt, msg] : bad) {
    INFO(opt);
    const auto r = RunGlimpse("train --out " + run + " " + opt);
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::Contains(msg));
    CHECK(!std::ifstream(run));
  }
  auto r = RunGlimpse("train --out " + run + " --data-dir /nonexistent");
  CHECK(r.code == 1);
  CHECK(!std::ifstream(run));  // a failed start leaves no half-made run file
  r = RunGlimpse("train --out " + run + " --no-such-option 1");
  CHECK(r.code == 2);
}

TEST_CASE("The best-by-validation checkpoint, every eval recorded, every leg's provenance", "[cli][train][selection]") {
  const std::string run = TempDir() + "/glimpse_cli_best.h5";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 2" + Small()).code == 0);
  REQUIRE(RunGlimpse("train --resume " + run + " --epochs 4").code == 0);
  auto r = RunGlimpse("eval --run " + run + " --checkpoint best");
  REQUIRE(r.code == 0);
  const std::string best_error = LastLine(r.output);
  REQUIRE(RunGlimpse("eval --run " + run + " --split val --samples 2").code == 0);
  REQUIRE(RunGlimpse("eval --run " + run + " --no-record").code == 0);
  const RunFile f(run, RunFile::Mode::kReadOnly);
  // /best holds the epoch of the lowest validation error (the first such), and nothing looked at test.
  const auto val = f.ReadSeries("/eval", "val_error"), epochs = f.ReadSeries("/eval", "epoch");
  const auto low = std::min_element(val.begin(), val.end()) - val.begin();
  const Checkpoint best = LoadBestCheckpoint(f);
  CHECK(best.epoch == static_cast<std::int64_t>(epochs[low]));
  CHECK_THAT(r.output, Catch::Contains("best checkpoint (epoch " + std::to_string(best.epoch) + ")"));
  CHECK(best_error == "test_error=" + [&] {
    std::ostringstream os;
    os << f.ReadSeries("/eval", "test_error")[low];
    return os.str();
  }());
  // Two evaluations recorded (the third asked not to be): split, checkpoint, M, error, commit.
  REQUIRE(f.SeriesLength("/evaluations") == 2);
  CHECK(f.ReadSeries("/evaluations", "best") == std::vector<double>{1, 0});
  CHECK(f.ReadSeries("/evaluations", "split") == std::vector<double>{1, 0});
  CHECK(f.ReadSeries("/evaluations", "samples") == std::vector<double>{1, 2});
  CHECK(f.Attributes("/evaluations").count("commit_1") == 1);
  // Two legs: the first run to 2 epochs, the resume from 2 to 4.
  REQUIRE(f.SeriesLength("/provenance") == 2);
  CHECK(f.ReadSeries("/provenance", "from_epoch") == std::vector<double>{0, 2});
  CHECK(f.ReadSeries("/provenance", "epochs") == std::vector<double>{2, 4});
  CHECK(f.Attributes("/provenance").count("commit_1") == 1);
  // Each leg names its machine: the CPU model and OpenBLAS's build and kernel.
  for (const char* key : {"cpu_0", "cpu_1", "blas_0", "blas_1"}) CHECK(f.Attributes("/provenance").count(key) == 1);
  CHECK(f.Attributes("/provenance").at("blas_1") == BlasBuild());
  CHECK(RunGlimpse("verify " + run).code == 0);
}

TEST_CASE("Subnormal floats are flushed by default, the mode may change on resume, each leg records it",
          "[cli][train][denormals]") {
  const std::string run = TempDir() + "/glimpse_cli_denormals.h5";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 1" + Small()).code == 0);
  {
    const RunFile f(run, RunFile::Mode::kReadOnly);
    CHECK(f.Attributes("/").at("denormals") == "flush");
    CHECK(f.Attributes("/provenance").at("denormals_0") == (CanFlushDenormals() ? "flush" : "keep"));
  }
  // A bad value is refused before anything is stored; a good one holds for the rest of the run.
  auto bad = RunGlimpse("train --resume " + run + " --epochs 2 --denormals off");
  CHECK(bad.code != 0);
  CHECK_THAT(bad.output, Catch::Contains("--denormals"));
  REQUIRE(RunGlimpse("train --resume " + run + " --epochs 2 --denormals keep").code == 0);
  REQUIRE(RunGlimpse("train --resume " + run + " --epochs 3").code == 0);
  {
    const RunFile f(run, RunFile::Mode::kReadOnly);
    CHECK(f.Attributes("/").at("denormals") == "keep");
    CHECK(f.ReadSeries("/provenance", "from_epoch") == std::vector<double>{0, 1, 2});
    CHECK(f.Attributes("/provenance").at("denormals_1") == "keep");
    CHECK(f.Attributes("/provenance").at("denormals_2") == "keep");
  }
  // A run file from before the option (no attribute) resumes as it was made: keeping subnormals.
  const hid_t h = H5Fopen(run.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(h >= 0);
  REQUIRE(H5Adelete(h, "denormals") >= 0);
  H5Fclose(h);
  AppendFileChecksum(run);  // as glimpse's own commit does
  const auto old = RunGlimpse("train --resume " + run + " --epochs 4");
  INFO(old.output);
  REQUIRE(old.code == 0);
  const RunFile f(run, RunFile::Mode::kReadOnly);
  CHECK(f.Attributes("/").count("denormals") == 0);
  CHECK(f.Attributes("/provenance").at("denormals_3") == "keep");
  CHECK(RunGlimpse("verify " + run).code == 0);
}

TEST_CASE("test-every: a screen evaluates the test split never (0) or every Nth evaluation and at the end",
          "[cli][train]") {
  const std::string run = TempDir() + "/glimpse_cli_test_every.h5";
  std::remove(run.c_str());
  auto r = RunGlimpse("train --out " + run + " --epochs 2 --test-every 0" + Small());
  REQUIRE(r.code == 0);
  CHECK(LastLine(r.output).rfind("val_error=", 0) == 0);  // the final line: the validation error
  CHECK_THAT(r.output, Catch::Contains("test_error -") && !Catch::Contains("test_error="));
  {
    const RunFile f(run, RunFile::Mode::kReadOnly);
    for (double e : f.ReadSeries("/eval", "test_error")) CHECK(std::isnan(e));
    for (double e : f.ReadSeries("/eval", "val_error")) CHECK(std::isfinite(e));
    for (double s : f.ReadSeries("/eval", "test_s")) CHECK(s == 0);
  }
  CHECK_THAT(RunGlimpse("summarize " + run).output, !Catch::Contains("test_s"));  // seconds, not a metric
  std::remove(run.c_str());
  // A task's other test metrics (pairs100: the digit and unordered errors) read "-" too, not "nan%".
  r = RunGlimpse("train --out " + run + " --epochs 1 --test-every 0 --env pairs100 --agent dram" + Small());
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("test_digit_error -") && !Catch::Contains("nan"));
  std::remove(run.c_str());
  r = RunGlimpse("train --out " + run + " --epochs 3 --test-every 2" + Small());
  REQUIRE(r.code == 0);
  CHECK(LastLine(r.output).rfind("test_error=", 0) == 0);
  const RunFile f(run, RunFile::Mode::kReadOnly);
  const auto test = f.ReadSeries("/eval", "test_error"), test_s = f.ReadSeries("/eval", "test_s"),
             eval_s = f.ReadSeries("/eval", "eval_s");
  REQUIRE(test.size() == 3);
  CHECK((std::isnan(test[0]) && std::isfinite(test[1]) && std::isfinite(test[2])));  // the 2nd and the last
  CHECK((test_s[0] == 0 && test_s[1] > 0 && test_s[2] > test_s[1] && test_s[2] < eval_s[2]));
}

TEST_CASE("train --hide-test: the messages give validation errors only, the run file the test evaluations as ever",
          "[cli][train]") {
  const std::string run = TempDir() + "/glimpse_cli_hide_test.h5";
  std::remove(run.c_str());
  auto r = RunGlimpse("train --out " + run + " --epochs 1 --hide-test --env pairs100 --agent dram" + Small());
  REQUIRE(r.code == 0);
  CHECK(LastLine(r.output).rfind("val_error=", 0) == 0);
  CHECK_THAT(r.output, Catch::Contains("test_error hidden") && Catch::Contains("test_digit_error hidden") &&
                           Catch::Contains("not shown: --hide-test") && !Catch::Contains("test_error="));
  r = RunGlimpse("train --resume " + run + " --epochs 2 --hide-test");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("epoch 2/2 done") && Catch::Contains("test_error hidden") &&
                           !Catch::Contains("test_error="));
  const RunFile f(run, RunFile::Mode::kReadOnly);
  const auto test = f.ReadSeries("/eval", "test_error");
  REQUIRE(test.size() == 2);
  for (double e : test) CHECK(std::isfinite(e));  // evaluated and stored, only not printed
  CHECK(RunGlimpse("eval --run " + run).output.find("test_error=") != std::string::npos);  // read when asked
}

TEST_CASE("summarize --reach: images and wall time until the validation error first reached a target",
          "[cli][summarize]") {
  const std::string run = TempDir() + "/glimpse_cli_reach.h5";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 3" + Small()).code == 0);
  const RunFile f(run, RunFile::Mode::kReadOnly);
  // Each evaluation records what the run had cost by then.
  const auto val = f.ReadSeries("/eval", "val_error"), images = f.ReadSeries("/eval", "images");
  const auto train_s = f.ReadSeries("/eval", "train_s"), eval_s = f.ReadSeries("/eval", "eval_s");
  REQUIRE(val.size() == 3);
  CHECK(images[0] > 0);
  CHECK(images == std::vector<double>{images[0], 2 * images[0], 3 * images[0]});
  CHECK((train_s[0] > 0 && train_s[1] > train_s[0] && eval_s[2] > eval_s[0]));
  // train_s is the run's wall time when the evaluation began: the earlier evaluations are in it.
  CHECK(train_s[1] - train_s[0] >= eval_s[0]);
  CHECK(train_s[2] - train_s[1] >= eval_s[1] - eval_s[0]);
  // A target every evaluation meets: the first one's cost; one none meets: "not reached".
  auto r = RunGlimpse("summarize " + run + " --reach 99.99");
  REQUIRE(r.code == 0);
  // The first evaluation: its images, epoch, the products' TFLOP by then and its test error (test % then).
  std::ostringstream first;
  const double test0 = f.ReadSeries("/eval", "test_error")[0];
  const double mflop = std::stod(f.Attributes("/").at("train_mflop_per_image"));
  first << std::fixed << std::setprecision(0) << images[0] << " (epoch 1) | " << std::setprecision(1)
        << images[0] * mflop / 1e6 << " | " << std::setprecision(2) << 100 * test0 << " | ";
  CHECK_THAT(r.output, Catch::Contains("images to 99.99% val | training TFLOP to it | test % then") &&
                           Catch::Contains(first.str()) && Catch::Contains("wall min to the end of that evaluation"));
  r = RunGlimpse("summarize " + run + " --reach 0.001");
  CHECK_THAT(r.output, Catch::Contains("not reached"));
  CHECK(RunGlimpse("summarize " + run + " --reach 150").code != 0);
}

TEST_CASE("summarize --reach counts a curriculum's earlier stage: its clock starts at the first stage",
          "[cli][summarize]") {
  namespace fs = std::filesystem;
  const std::string dir = TempDir() + "/glimpse_cli_reach_stages", stage = dir + "/stage.h5", run = dir + "/run.h5";
  fs::remove_all(dir);
  fs::create_directories(dir);
  REQUIRE(RunGlimpse("train --out " + stage + " --epochs 2" + Small()).code == 0);
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 1 --init-from " + stage + Small()).code == 0);
  const RunFile s(stage, RunFile::Mode::kReadOnly), f(run, RunFile::Mode::kReadOnly);
  const double stage_images = s.ReadSeries("/eval", "images").back(), images = f.ReadSeries("/eval", "images")[0];
  const double mflop = std::stod(f.Attributes("/").at("train_mflop_per_image"));  // the same model in both
  const auto cost = [&] { return RunGlimpse("summarize " + run + " --reach 99.99"); };
  auto r = cost();
  REQUIRE(r.code == 0);
  std::ostringstream cells;  // the stage's images and FLOPs are added to the run's own
  cells << std::fixed << std::setprecision(0) << stage_images + images << " (epoch 1; " << stage_images
        << " of them in 1 earlier stage) | " << std::setprecision(1) << (stage_images + images) * mflop / 1e6 << " | ";
  CHECK_THAT(r.output, Catch::Contains(cells.str()));
  // The stage's committed copy (results/X/runs/ID.h5 of results/X/ID.h5) is read when the file is not here.
  fs::create_directories(dir + "/runs");
  REQUIRE(RunGlimpse("slim --curves-only --run " + stage + " --out " + dir + "/runs/stage.h5").code == 0);
  fs::rename(stage, dir + "/moved.h5");
  r = cost();
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains(cells.str()));
  // Neither: an error, not a clock that starts late.
  fs::remove(dir + "/runs/stage.h5");
  r = cost();
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("starts from '" + stage + "' (--init-from), which is not here"));
  fs::remove_all(dir);
}

TEST_CASE("train --stop-at: the run stops after the first evaluation at its target and counts as finished",
          "[cli][summarize]") {
  const std::string run = TempDir() + "/glimpse_cli_stop_at.h5";
  std::remove(run.c_str());
  // A target every evaluation meets (99.99%): the run stops after its first epoch of 3.
  auto r = RunGlimpse("train --out " + run + " --epochs 3 --stop-at 99.99" + Small());
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("stopping: reached --stop-at 99.99%") && Catch::Contains("at epoch 1"));
  {
    const RunFile f(run, RunFile::Mode::kReadOnly);
    CHECK(f.SeriesLength("/eval") == 1);
    CHECK(f.Attributes("/").at("stopped_at_target") == "1");
    CHECK(EpochsDone(f) == 1);
  }
  CHECK(RunGlimpse("summarize --status " + run).output == "finished\n");
  // A resume trains nothing and adds no leg.
  r = RunGlimpse("train --resume " + run);
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("nothing to train"));
  {
    const RunFile f(run, RunFile::Mode::kReadOnly);
    CHECK(f.SeriesLength("/provenance") == 1);
    CHECK(f.SeriesLength("/eval") == 1);
  }
  // A target no evaluation meets: all 3 epochs, no stop.
  std::remove(run.c_str());
  r = RunGlimpse("train --out " + run + " --epochs 3 --stop-at 0.01" + Small());
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, !Catch::Contains("stopping"));
  CHECK(RunFile(run, RunFile::Mode::kReadOnly).SeriesLength("/eval") == 3);
  CHECK(RunGlimpse("train --out " + run + " --force --stop-at 100" + Small()).code != 0);
}

TEST_CASE("eval --predictions writes each image's label and answer, agreeing with the error it prints", "[cli][eval]") {
  const std::string run = TempDir() + "/glimpse_cli_predictions.h5", csv = TempDir() + "/glimpse_cli_predictions.csv";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 1" + Small()).code == 0);
  const auto r = RunGlimpse("eval --run " + run + " --no-record --predictions " + csv + " --data-dir " + Data());
  REQUIRE(r.code == 0);
  const double error = std::stod(LastLine(r.output).substr(std::string("test_error=").size()));
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  CHECK(line == "index,label,answer");
  int rows = 0, wrong = 0;
  while (std::getline(in, line)) {
    int index, label, answer;
    char c1, c2;
    std::istringstream(line) >> index >> c1 >> label >> c2 >> answer;
    CHECK(index == rows);
    wrong += label != answer, ++rows;
  }
  CHECK(rows == 24);  // the fake data set's test split
  CHECK(static_cast<double>(wrong) / rows == Approx(error).epsilon(1e-5));
}

TEST_CASE("train stores the selected evaluation's test answers, as eval of the best checkpoint gives them",
          "[cli][train][eval]") {
  const std::string run = TempDir() + "/glimpse_cli_best_test.h5", csv = TempDir() + "/glimpse_cli_best_test.csv";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 3" + Small()).code == 0);
  std::vector<std::int32_t> labels, answers;
  std::int64_t best_epoch = 0;
  double best_test_error = 0;
  {
    const RunFile f(run, RunFile::Mode::kReadOnly);
    REQUIRE(f.Exists(kBestTestGroup));
    labels = f.ReadArray<std::int32_t>(std::string(kBestTestGroup) + "/labels");
    answers = f.ReadArray<std::int32_t>(std::string(kBestTestGroup) + "/answers");
    const auto val = f.ReadSeries("/eval", "val_error"), test = f.ReadSeries("/eval", "test_error");
    const auto at = std::min_element(val.begin(), val.end()) - val.begin();  // the first lowest: the selected one
    best_epoch = static_cast<std::int64_t>(f.ReadSeries("/eval", "epoch")[at]);
    best_test_error = test[at];
    CHECK(f.Attributes(kBestTestGroup).at("epoch") == std::to_string(best_epoch));
  }
  REQUIRE(labels.size() == 24);  // the fake data set's test split
  REQUIRE(answers.size() == 24);
  int wrong = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) wrong += labels[i] != answers[i];
  CHECK(wrong / 24.0 == Approx(best_test_error).margin(1e-9));
  // glimpse eval of the best checkpoint answers every image as the trainer did at that evaluation.
  REQUIRE(RunGlimpse("eval --run " + run + " --no-record --checkpoint best --predictions " + csv).code == 0);
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  for (std::size_t i = 0; std::getline(in, line); ++i) {
    int index, label, answer;
    char c1, c2;
    std::istringstream(line) >> index >> c1 >> label >> c2 >> answer;
    REQUIRE(i < labels.size());
    CHECK(label == labels[i]);
    CHECK(answer == answers[i]);
  }
  // A run that never reads the test split stores no answers.
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 2 --test-every 0" + Small()).code == 0);
  CHECK(!RunFile(run, RunFile::Mode::kReadOnly).Exists(kBestTestGroup));
}

TEST_CASE("summarize takes an experiment name or a quoted glob: its runs, or a clear error", "[cli][summarize]") {
  // From the checkout's root: results/ram_table/runs/ holds its 15 committed copies.
  auto r = RunGlimpse("summarize ram_table");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("results/ram_table/runs/mnist28-g6.h5") &&
                           Catch::Contains("results/ram_table/runs/cluttered100-g8.h5"));
  r = RunGlimpse("summarize 'results/ram_table/runs/mnist28-g*.h5'");  // a quoted glob
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("results/ram_table/runs/mnist28-g2.h5") &&
                           !Catch::Contains("results/ram_table/runs/cluttered100-g8.h5"));
  r = RunGlimpse("summarize 'results/ram_table/runs/nothing-*.h5'");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("no run files match 'results/ram_table/runs/nothing-*.h5'"));
  r = RunGlimpse("summarize no_such_experiment");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("'no_such_experiment' is neither a run file nor an experiment") &&
                           Catch::Contains("results/no_such_experiment/runs"));
}

TEST_CASE("summarize --hide-test prints no test error: a row still running keeps its test split unread",
          "[cli][summarize]") {
  // pairs100's row, seed 2: selected at epoch 58 (validation 7.07%), test 7.97%, per digit 4.06%.
  const std::string run = "results/multi_digit_frontier_rows/runs/pairs-lstm-conv-s2.h5",
                    seed3 = "results/multi_digit_frontier_rows/runs/pairs-lstm-conv-s3.h5";
  auto r = RunGlimpse("summarize " + run);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output,
             Catch::Contains("| 7.07 (58) | 7.97 | 7.07 / 8.01 |") && Catch::Contains("test_digit_error 4.06"));
  r = RunGlimpse("summarize " + run + " " + seed3 + " --hide-test --reach 50");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("| 7.07 (58) | - | 7.07 / - |") && Catch::Contains("test_digit_error -") &&
                           !Catch::Contains("| 7.97 |") && !Catch::Contains("8.01") && !Catch::Contains("4.06"));
  CHECK_THAT(r.output, Catch::Contains("| 2 | 7.31 +- 0.35 | - | - | - |"));  // pooled: validation only
}

TEST_CASE("eval refuses files that are not glimpse runs", "[cli][train]") {
  const std::string junk = TempDir() + "/glimpse_cli_junk.h5";
  std::ofstream(junk) << "not hdf5";
  auto r = RunGlimpse("eval --run " + junk);
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("not an HDF5 file"));
  r = RunGlimpse("eval --run " + TempDir() + "/glimpse_cli_absent.h5");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("does not exist"));
}

TEST_CASE("bench prints images_per_s last", "[cli][bench]") {
  auto r = RunGlimpse("bench --images 64" + Small());
  CHECK(r.code == 0);
  CHECK(LastLine(r.output).rfind("images_per_s=", 0) == 0);
  r = RunGlimpse("bench --images 64 --profile" + Small());
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("matrix products") && Catch::Contains("BLAS floor") &&
                           Catch::Contains("largest products"));
  CHECK(LastLine(r.output).rfind("images_per_s=", 0) == 0);
  r = RunGlimpse("bench --what env --images 256 --data-dir " + Data());
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("cluttered100"));
  CHECK(LastLine(r.output).rfind("images_per_s=", 0) == 0);
  r = RunGlimpse("bench --what sensors --threads 1");  // every registered sensor at every canvas size
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("whole (whole canvas)") && Catch::Contains("stn (stn)"));
  CHECK(LastLine(r.output).rfind("images_per_s=", 0) == 0);
}

TEST_CASE("eval --canvas-seed: the same weights on the split's canvases drawn from another seed", "[cli][eval]") {
  const std::string run = TempDir() + "/glimpse_cli_canvas.h5";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --env translated60 --seed 3 --epochs 1" + Small()).code == 0);
  auto r = RunGlimpse("eval --run " + run);  // the run's own canvases: recorded with its seed
  REQUIRE(r.code == 0);
  const std::string own = LastLine(r.output);
  r = RunGlimpse("eval --run " + run + " --canvas-seed 3");  // named explicitly: the same canvases
  REQUIRE(r.code == 0);
  CHECK(LastLine(r.output) == own);
  CHECK_THAT(r.output, Catch::Contains("canvases of seed 3"));
  // Another seed is recorded as such. (That it draws other canvases needs a model whose answers depend
  // on the image, which these noise digits cannot train: test_committed_runs checks it on real MNIST.)
  r = RunGlimpse("eval --run " + run + " --canvas-seed 4");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("canvases of seed 4"));
  const RunFile f(run, RunFile::Mode::kReadOnly);
  CHECK(f.ReadSeries("/evaluations", "canvas_seed") == std::vector<double>{3, 3, 4});
  r = RunGlimpse("eval --run " + run + " --canvas-seed -1");  // not a seed (a plain read would wrap it)
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("option --canvas-seed: expected a whole number of at least 0"));
}
