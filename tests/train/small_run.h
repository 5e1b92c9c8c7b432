// The small training setup the trainer tests share: a fake data set of 64 training and 24 test images
// (tests/envs/fake_data.h), a 2-glimpse model of 6 x 6 patches with 16 hidden units, batch 8, 3 epochs of
// 8 steps, one thread, seed 5. folder: the fake data's folder under TempDir(), one per test file (ctest
// runs test files' cases in parallel processes).
#pragma once

#include <cstdio>
#include <string>

#include "src/train/make_kinds.h"
#include "src/train/trainer.h"
#include "tests/cli/cli_helpers.h"
#include "tests/envs/fake_data.h"

namespace glimpse::test {

inline ExperimentConfig SmallTrainConfig(const std::string& folder) {
  ExperimentConfig c;
  c.data_dir = WriteFakeDataDir(TempDir() + "/" + folder, 64, 24);
  c.glimpses = 2;
  c.patch = 6;
  c.hidden = 16;
  c.glimpse_hidden = 8;
  c.batch = 8;
  c.epochs = 3;
  c.val_images = 32;
  c.trajectories = 4;
  c.log_every = 3;
  c.threads = 1;
  c.seed = 5;
  return c;
}

// A run file path under TempDir(), glimpse_test_NAME.h5, removed if it exists. NAME must differ between
// test files, whose cases ctest runs in parallel processes.
inline std::string TempRunPath(const std::string& name) {
  const std::string p = TempDir() + "/glimpse_test_" + name + ".h5";
  std::remove(p.c_str());
  return p;
}

// Trains cfg from its first step into a new run file at path (an old one there is replaced).
inline void TrainRun(const std::string& path, const ExperimentConfig& cfg) {
  std::remove(path.c_str());
  RunFile file(path, RunFile::Mode::kCreate);
  Trainer t(cfg, &file, false);
  t.Run();
}

}  // namespace glimpse::test
