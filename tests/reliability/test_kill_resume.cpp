// Kill test: a training run is killed with SIGKILL at random moments, 20 times in a row, and
// resumed each time. After every kill the run file must open and its series must agree with its
// checkpoint; the finished run must equal an uninterrupted one.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "src/train/checkpoint.h"
#include "src/train/run_file.h"
#include "tests/cli/cli_helpers.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

std::string Options(const std::string& data) {
  return " --data-dir " + data +
         " --glimpses 3 --patch 6 --hidden 32 --glimpse-hidden 16 --batch 8 --epochs 40"
         " --val-images 64 --trajectories 3 --log-every 2 --threads 1 --seed 9";
}

}  // namespace

TEST_CASE("SIGKILL at random moments, 20 times, then resume: no lost or diverging results",
          "[reliability][kill]") {
  const std::string data = WriteFakeDataDir(TempDir() + "/glimpse_kill_data", 64, 24);
  const std::string ref = TempDir() + "/glimpse_kill_ref.h5", run = TempDir() + "/glimpse_kill_run.h5";
  std::remove(ref.c_str());
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + ref + Options(data)).code == 0);

  Rng rng(2024, "kill-test");
  int kills = 0, attempts = 0;
  bool finished = false;
  auto exists = [&] { return static_cast<bool>(std::ifstream(run)); };
  while (!finished && attempts < 200) {
    ++attempts;
    // Kill after 20 to 400 ms (startup, training, evaluation and checkpoint writes all get hit).
    const double delay = kills < 20 ? rng.Uniform(0.02, 0.4) : 1000.0;
    // Killed before its first commit, a run leaves no file (nothing was lost): start it again.
    const std::string cmd = exists() ? "train --resume " + run : "train --out " + run + Options(data);
    const auto r = RunGlimpse("__timeout_kill__ " + std::to_string(delay) + " " + cmd);
    if (r.code == 137) {
      ++kills;
      if (!exists()) continue;
      // The file opens, and if it holds a checkpoint, every series reaches at least as far.
      const RunFile f(run, RunFile::Mode::kReadOnly);
      if (HasCheckpoint(f)) {
        const Checkpoint c = LoadCheckpoint(f);
        for (const auto& [group, len] : c.lengths) {
          INFO(group);
          if (len == 0) continue;  // the initial checkpoint: nothing written yet
          const std::size_t have = group == "/trajectories"
                                       ? f.ReadArray<std::int64_t>("/trajectories/epoch").size()
                                       : f.SeriesLength(group);
          CHECK(have >= static_cast<std::size_t>(len));
        }
        // The checkpoint's last evaluation row is its own epoch (none for the initial checkpoint).
        const auto eval_rows = static_cast<std::size_t>(c.lengths.at("/eval"));
        if (c.epoch == 0) {
          CHECK(eval_rows == 0);
        } else {
          const auto eval_epochs = f.ReadSeries("/eval", "epoch");
          REQUIRE(eval_rows >= 1);
          REQUIRE(eval_epochs.size() >= eval_rows);
          CHECK(eval_epochs[eval_rows - 1] == c.epoch);
        }
      }
      continue;
    }
    INFO(r.output);
    REQUIRE(r.code == 0);
    finished = kills >= 20;
  }
  CHECK(kills >= 20);
  const RunFile a(ref, RunFile::Mode::kReadOnly), b(run, RunFile::Mode::kReadOnly);
  CHECK(LoadCheckpoint(a).params == LoadCheckpoint(b).params);
  for (const char* s : {"step", "loss", "reward", "lr"}) {
    INFO(s);
    CHECK(a.ReadSeries("/train", s) == b.ReadSeries("/train", s));
  }
  CHECK(a.ReadSeries("/eval", "test_error") == b.ReadSeries("/eval", "test_error"));
  CHECK(a.ReadArray<float>("/trajectories/locations") == b.ReadArray<float>("/trajectories/locations"));
}
