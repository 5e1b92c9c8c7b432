#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "src/core/error.h"
#include "src/store/checkpoint.h"
#include "src/store/run_file.h"
#include "tests/cli/cli_helpers.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {
std::string Fresh(const std::string& name) {
  const std::string p = TempDir() + "/glimpse_runfile_" + name + ".h5";
  std::remove(p.c_str());
  return p;
}
// A minimal valid run file.
void Mark(RunFile& f) { f.SetAttribute("/", "glimpse_version", "test"); }
}  // namespace

TEST_CASE("Series append, truncate, and keep one length per group", "[train][runfile]") {
  const std::string p = Fresh("series");
  {
    RunFile f(p, RunFile::Mode::kCreate);
    Mark(f);
    for (int i = 0; i < 5; ++i) f.Append("/train", {{"step", double(i)}, {"loss", 0.5 * i}});
    // A series first written after 5 rows is back-filled with NaN.
    f.Append("/train", {{"step", 5.0}, {"loss", 2.5}, {"entropy", 1.0}});
    CHECK(f.SeriesLength("/train") == 6);
    const auto e = f.ReadSeries("/train", "entropy");
    REQUIRE(e.size() == 6);
    CHECK(std::isnan(e[0]));
    CHECK(e[5] == 1.0);
    f.TruncateSeries("/train", 3);
    CHECK(f.ReadSeries("/train", "loss") == std::vector<double>{0.0, 0.5, 1.0});
    CHECK(f.ReadSeries("/train", "entropy").size() == 3);
  }
  const RunFile r(p, RunFile::Mode::kReadOnly);
  CHECK(r.SeriesLength("/train") == 3);
  CHECK(r.SeriesLength("/absent") == 0);
}

TEST_CASE("Arrays are rewritten in place and grown by blocks", "[train][runfile]") {
  const std::string p = Fresh("arrays");
  RunFile f(p, RunFile::Mode::kCreate);
  Mark(f);
  const float a[6] = {1, 2, 3, 4, 5, 6};
  f.WriteArray<float>("/a", {2, 3}, a);
  const float b[6] = {6, 5, 4, 3, 2, 1};
  f.WriteArray<float>("/a", {2, 3}, b);
  std::vector<std::size_t> shape;
  CHECK(f.ReadArray<float>("/a", &shape) == std::vector<float>(b, b + 6));
  CHECK(shape == std::vector<std::size_t>{2, 3});
  f.CreateGroup("/g");
  const std::int32_t blk[2] = {7, 8};
  f.AppendBlock<std::int32_t>("/g/p", {2}, blk);
  f.AppendBlock<std::int32_t>("/g/p", {2}, blk);
  CHECK(f.ReadArray<std::int32_t>("/g/p", &shape).size() == 4);
  CHECK(shape == std::vector<std::size_t>{2, 2});
  f.TruncateBlocks<std::int32_t>("/g/p", 1);
  CHECK(f.ReadArray<std::int32_t>("/g/p").size() == 2);
  CHECK_THROWS_WITH(f.ReadArray<float>("/nope"), Catch::Contains("no dataset '/nope'"));
}

TEST_CASE("Opening files that are not glimpse runs fails clearly", "[train][runfile]") {
  const std::string p = Fresh("foreign");
  CHECK_THROWS_WITH(RunFile(p, RunFile::Mode::kReadOnly), Catch::Contains("does not exist"));
  std::ofstream(p) << "plain text";
  CHECK_THROWS_WITH(RunFile(p, RunFile::Mode::kReadOnly), Catch::Contains("not an HDF5 file"));
  CHECK_THROWS_WITH(RunFile(p, RunFile::Mode::kCreate), Catch::Contains("--force"));
  { RunFile f(p, RunFile::Mode::kOverwrite); }  // HDF5 but without the glimpse attribute
  CHECK_THROWS_WITH(RunFile(p, RunFile::Mode::kReadWrite), Catch::Contains("not a glimpse run file"));
}

TEST_CASE("Checkpoints round-trip and survive an interrupted save", "[train][runfile][checkpoint]") {
  const std::string p = Fresh("ckpt");
  RunFile f(p, RunFile::Mode::kCreate);
  Mark(f);
  CHECK(!HasCheckpoint(f));
  CHECK_THROWS_WITH(LoadCheckpoint(f), Catch::Contains("no complete checkpoint"));
  Checkpoint c;
  c.step = 10;
  c.epoch = 1;
  c.params = {1, 2, 3};
  c.table = {ParamInfo{"a.W", {1, 2}, 0, 2}, ParamInfo{"a.b", {1}, 2, 1}};
  c.optimizer["adam_m"] = {0.1f, 0.2f, 0.3f};
  c.optimizer_steps = 10;
  Rng rng(3, "x");
  rng.Normal();
  c.rngs["policy"] = rng.GetState();
  c.lengths["/train"] = 4;
  c.scalars["wall_s"] = 1.5;
  SaveCheckpoint(f, c);
  for (int k = 2; k <= 4; ++k) {  // later saves reuse the two slots
    c.step = 10 * k;
    c.params[0] = static_cast<float>(k);
    SaveCheckpoint(f, c);
  }
  Checkpoint back = LoadCheckpoint(f);
  CHECK(back.step == 40);
  CHECK(back.params == std::vector<float>{4, 2, 3});
  CHECK(back.table.size() == 2);
  CHECK(back.table[1].name == "a.b");
  CHECK(back.table[0].shape == std::vector<std::size_t>{1, 2});
  CHECK(back.optimizer.at("adam_m") == c.optimizer.at("adam_m"));
  CHECK(back.rngs.at("policy").spare == rng.GetState().spare);
  CHECK(back.lengths.at("/train") == 4);
  CHECK(back.scalars.at("wall_s") == 1.5);
  CHECK(!f.Exists("/checkpoint_new"));
  // A save that dies while writing the spare slot leaves it incomplete: the last good one is used.
  f.SetAttribute("/checkpoint_next", "complete", "0");
  f.SetAttribute("/checkpoint_next", "step", "999");
  CHECK(LoadCheckpoint(f).step == 40);
  // A save that dies between the renames leaves no /checkpoint: the complete spare is found.
  f.SetAttribute("/checkpoint_next", "complete", "1");
  f.Move("/checkpoint", "/checkpoint_prev");
  CHECK(LoadCheckpoint(f).step == 999);
}
