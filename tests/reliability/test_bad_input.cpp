// Bad input and hostile output locations: a clear message, a non-zero exit, nothing overwritten.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/cli/cli_helpers.h"
#include "tests/envs/fake_data.h"

using namespace glimpse::test;
namespace fs = std::filesystem;

namespace {

const std::string& Data() {
  static const std::string dir = WriteFakeDataDir(TempDir() + "/glimpse_bad_input_data", 64, 24);
  return dir;
}

std::string Small(const std::string& data = Data()) {
  return " --data-dir " + data +
         " --glimpses 2 --patch 6 --hidden 16 --glimpse-hidden 8 --batch 8 --val-images 16 --epochs 1"
         " --trajectories 2 --threads 1";
}

std::uintmax_t Size(const std::string& p) { return fs::exists(p) ? fs::file_size(p) : 0; }

}  // namespace

TEST_CASE("A damaged run file given to --resume or eval is refused and left alone", "[reliability][cli]") {
  const std::string run = TempDir() + "/glimpse_bad_damaged.h5";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + Small()).code == 0);
  // Cut the file in half: HDF5's superblock survives, its objects do not.
  fs::resize_file(run, fs::file_size(run) / 2);
  const auto size = Size(run);
  for (const std::string& cmd : {"train --resume " + run, "eval --run " + run}) {
    INFO(cmd);
    const auto r = RunGlimpse(cmd);
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::Contains(run));
    CHECK(Size(run) == size);
  }
}

TEST_CASE("Corrupt data files stop training before any run file is made", "[reliability][cli]") {
  const std::string dir = TempDir() + "/glimpse_bad_corrupt_data";
  fs::remove_all(dir);
  fs::copy(Data(), dir);
  const std::string run = TempDir() + "/glimpse_bad_corrupt.h5";
  std::remove(run.c_str());
  fs::resize_file(dir + "/t10k-images-idx3-ubyte", 1000);  // truncated
  auto r = RunGlimpse("train --out " + run + Small(dir));
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("t10k-images-idx3-ubyte") && Catch::Contains("truncated"));
  CHECK(!fs::exists(run));
  std::ofstream(dir + "/t10k-images-idx3-ubyte") << "<html>not found</html>";  // a foreign file
  r = RunGlimpse("train --out " + run + Small(dir));
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("not an unsigned-byte IDX file"));
}

TEST_CASE("An output folder that does not exist, or a full disk, fails cleanly", "[reliability][cli]") {
  auto r = RunGlimpse("train --out /nonexistent-dir/run.h5" + Small());
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("/nonexistent-dir/run.h5"));

  // A full disk, imitated by a file-size limit: the first commit that cannot be written fails with
  // a message, and the file that was there before is untouched.
  const std::string run = TempDir() + "/glimpse_bad_full.h5";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + Small()).code == 0);
  const auto size = Size(run);
  r = RunGlimpse("__prlimit_fsize__ " + std::to_string(size / 2) + " train --resume " + run + " --epochs 3");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains(run) && Catch::Contains("disk full"));
  CHECK(Size(run) == size);
  CHECK(RunGlimpse("eval --run " + run).code == 0);  // still a good run file
}
