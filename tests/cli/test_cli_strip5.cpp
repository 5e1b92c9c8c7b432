// strip5 through the command line: train (soft and categorical), the logged attention weights,
// eval, resume, render, and the attention types it refuses.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "src/store/run_file.h"
#include "tests/cli/cli_helpers.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

// 200 training and 200 test digits, so every class is in every split (strip5 needs that).
const std::string& Data() {
  static const std::string dir = WriteFakeDataDir(TempDir() + "/glimpse_cli_strip5_data", 200, 200);
  return dir;
}

std::string Small() {
  return " --env strip5 --data-dir " + Data() +
         " --hidden 16 --glimpse-hidden 8 --attention-dim 6 --batch 16 --val-images 32 --trajectories 3 --threads 1 ";
}

}  // namespace

TEST_CASE("strip5 trains soft and categorical attention and logs the weights of every query", "[cli][strip5]") {
  for (const char* attention : {"soft", "categorical"}) {
    INFO(attention);
    const std::string run = TempDir() + "/glimpse_cli_strip5_" + attention + ".h5";
    std::remove(run.c_str());
    auto r = RunGlimpse("train --out " + run + " --epochs 2 --attention " + attention + Small());
    REQUIRE(r.code == 0);
    CHECK_THAT(r.output, Catch::Contains("test_peak"));
    CHECK_THAT(r.output, Catch::Contains("test_error="));
    {
      const RunFile f(run, RunFile::Mode::kReadOnly);
      CHECK(f.Attributes("/").at("env") == "strip5");
      std::vector<std::size_t> shape;
      const auto weights = f.ReadArray<float>("/attention/weights", &shape);
      CHECK(shape == std::vector<std::size_t>{2, 3, 10, 5});  // (evaluations, strips, queries, slots)
      for (std::size_t row = 0; row < weights.size() / 5; ++row) {
        double s = 0;
        for (int i = 0; i < 5; ++i) s += weights[row * 5 + i];
        CHECK(s == Approx(1.0).epsilon(1e-5));
      }
      f.ReadArray<float>("/attention/strip", &shape);
      CHECK(shape == std::vector<std::size_t>{3, 28, 140});
      CHECK(f.ReadArray<std::int32_t>("/attention/query").size() == 3);
      CHECK(f.ReadArray<std::int32_t>("/attention/prediction", &shape).size() == 60);
      CHECK(f.ReadSeries("/eval", "test_peak").size() == 2);
    }
    r = RunGlimpse("eval --run " + run);
    CHECK(r.code == 0);
    CHECK_THAT(r.output, Catch::Contains("test_error="));
    r = RunGlimpse("summarize " + run);
    CHECK(r.code == 0);
    CHECK_THAT(r.output, Catch::Contains("| test_peak "));
    r = RunGlimpse("train --resume " + run + " --epochs 3");
    CHECK(r.code == 0);
    const RunFile f(run, RunFile::Mode::kReadOnly);
    CHECK(f.ReadArray<std::int64_t>("/attention/epoch") == std::vector<std::int64_t>{1, 2, 3});
  }
}

TEST_CASE("strip5 with the categorical choice keeps the REINFORCE options", "[cli][strip5]") {
  const std::string run = TempDir() + "/glimpse_cli_strip5_loo.h5";
  std::remove(run.c_str());
  auto r = RunGlimpse("train --out " + run +
                      " --epochs 1 --attention categorical --baseline loo --samples 2 "
                      "--diag-every 5 --diag-draws 4 --train-images 160" +
                      Small());
  REQUIRE(r.code == 0);
  const RunFile f(run, RunFile::Mode::kReadOnly);
  CHECK(f.SeriesLength("/diagnostics") == 2);
  CHECK(f.ReadSeries("/diagnostics", "grad_var")[0] > 0);
}

TEST_CASE("strip5 refuses the image sensors - render draws strips", "[cli][strip5]") {
  const std::string run = TempDir() + "/glimpse_cli_strip5_bad.h5";
  for (const char* attention : {"gaussian", "draw", "stn"}) {
    const auto r = RunGlimpse("train --out " + run + " --attention " + attention + Small());
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::Contains("strip5 takes soft") && Catch::Contains(attention));
    CHECK(!std::ifstream(run));
  }
  const std::string png = TempDir() + "/glimpse_cli_strip5.png";
  std::remove(png.c_str());
  const auto r = RunGlimpse("render --env strip5 --count 4 --split test --out " + png + " --data-dir " + Data());
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("query:answer"));
  CHECK(std::ifstream(png).good());
}
