// glimpse slim's contract (docs/cli.md): the copies results/ commits, what each keeps and what each
// can still do (evaluate, plot, start --init-from, never resume), on a small fake data set.
#include <hdf5.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>

#include "envs/batch.h"
#include "envs/dataset.h"
#include "envs/tasks.h"
#include "src/store/checkpoint.h"
#include "src/store/run_file.h"
#include "tests/cli/cli_helpers.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

const std::string& Data() {
  static const std::string dir = WriteFakeDataDir(TempDir() + "/glimpse_cli_slim_data", 64, 24);
  return dir;
}

std::string Small() { return TinyRun(Data()); }

}  // namespace

TEST_CASE("slim writes a smaller copy that evaluates the same and refuses to resume", "[cli][slim]") {
  const std::string run = TempDir() + "/glimpse_cli_slim_run.h5", small = TempDir() + "/glimpse_cli_slim.h5";
  std::remove(run.c_str());
  std::remove(small.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 2" + Small()).code == 0);
  auto r = RunGlimpse("slim --run " + run + " --out " + small);
  REQUIRE(r.code == 0);
  CHECK(std::filesystem::file_size(small) < std::filesystem::file_size(run));
  {
    const glimpse::RunFile f(small, glimpse::RunFile::Mode::kReadOnly);
    for (const auto& g : glimpse::CheckpointGroups())
      if (g != glimpse::CheckpointGroup(f)) CHECK(!f.Exists(g));  // no spare slot
    CHECK(f.SeriesNames(glimpse::CheckpointGroup(f) + "/optimizer").empty());
    CHECK(f.Exists("/trajectories/locations"));
    CHECK(f.Attributes("/").count("slim") == 1);
  }
  const std::string full_eval = LastLine(RunGlimpse("eval --run " + run).output);
  const auto rows = [&] {
    return glimpse::RunFile(small, glimpse::RunFile::Mode::kReadOnly).SeriesLength("/evaluations");
  };
  const auto size = std::filesystem::file_size(small);
  r = RunGlimpse("eval --run " + small);  // a slim copy (what results/ commits) is left as it is
  CHECK(r.code == 0);
  CHECK(LastLine(r.output) == full_eval);
  CHECK_THAT(r.output, Catch::Contains("not recorded") && Catch::Contains("--record"));
  CHECK((rows() == 0 && std::filesystem::file_size(small) == size));
  r = RunGlimpse("eval --run " + small + " --record");
  CHECK(r.code == 0);
  CHECK(LastLine(r.output) == full_eval);
  CHECK(rows() == 1);
  CHECK(RunGlimpse("eval --run " + small + " --record --no-record").code == 1);
  r = RunGlimpse("summarize " + small);
  CHECK_THAT(r.output, Catch::Contains("| 2/2 |"));
  r = RunGlimpse("train --resume " + small + " --epochs 3");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("made by glimpse slim"));
  r = RunGlimpse("slim --run " + run + " --out " + small);
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("--force"));
  CHECK(RunGlimpse("slim --run " + run + " --out " + small + " --force").code == 0);
  CHECK(RunGlimpse("train --resume " + run + " --epochs 3").code == 0);  // the full file still resumes
  // A missing folder for the copy is made (the usual case: a new results/NAME/runs/).
  const std::string folder = TempDir() + "/glimpse_cli_slim_new", nested = folder + "/runs/small.h5";
  std::filesystem::remove_all(folder);
  REQUIRE(RunGlimpse("slim --run " + run + " --out " + nested).code == 0);
  CHECK(RunGlimpse("verify " + nested).code == 0);
  std::filesystem::remove_all(folder);
}

TEST_CASE("slim --curves-only keeps a screen's curves and evaluations, no parameters", "[cli][slim]") {
  const std::string run = TempDir() + "/glimpse_cli_curves.h5", small = TempDir() + "/glimpse_cli_curves_slim.h5",
                    curves = TempDir() + "/glimpse_cli_curves_only.h5";
  for (const auto& p : {run, small, curves}) std::remove(p.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 2" + Small()).code == 0);
  REQUIRE(RunGlimpse("slim --run " + run + " --out " + small).code == 0);
  auto r = RunGlimpse("slim --run " + run + " --out " + curves + " --curves-only");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("curves only"));
  CHECK(std::filesystem::file_size(curves) < std::filesystem::file_size(small));
  {
    const RunFile full(run, RunFile::Mode::kReadOnly), f(curves, RunFile::Mode::kReadOnly);
    CHECK(f.ReadSeries("/eval", "val_error") == full.ReadSeries("/eval", "val_error"));
    CHECK(f.ReadSeries("/train", "loss") == full.ReadSeries("/train", "loss"));
    for (const auto& g : CheckpointGroups()) CHECK(!f.Exists(g));
    CHECK(!f.Exists(kBestGroup));
    CHECK(f.Attributes("/").at("epochs_done") == "2");
  }
  CHECK(RunGlimpse("verify " + curves).code == 0);
  CHECK(LastLine(RunGlimpse("summarize --status " + curves).output) == "finished");  // a sweep skips it
  CHECK_THAT(RunGlimpse("summarize " + curves).output, Catch::Contains("| 2/2 |"));
  r = RunGlimpse("eval --run " + curves);
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("curves only"));
  // A curves-only copy copies again only as curves (what migrates an older copy's stored canvases).
  const std::string again = TempDir() + "/glimpse_cli_curves_again.h5";
  r = RunGlimpse("slim --run " + curves + " --out " + again + " --force");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("a curves-only copy: --curves-only copies it again"));
  REQUIRE(RunGlimpse("slim --run " + curves + " --out " + again + " --force --curves-only").code == 0);
  {
    const RunFile a(curves, RunFile::Mode::kReadOnly), b(again, RunFile::Mode::kReadOnly);
    CHECK(b.ReadSeries("/eval", "val_error") == a.ReadSeries("/eval", "val_error"));
    CHECK(b.Attributes("/").at("epochs_done") == "2");
    CHECK(b.Attributes("/").at("slim") == a.Attributes("/").at("slim"));  // names the run it was made from
  }
  CHECK(LastLine(RunGlimpse("summarize --status " + again).output) == "finished");
}

TEST_CASE("slim leaves out logged canvases its task renders again and keeps any other", "[cli][slim]") {
  const std::string run = TempDir() + "/glimpse_cli_canvas_run.h5", small = TempDir() + "/glimpse_cli_canvas.h5";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 1 --env translated60" + Small()).code == 0);
  // A file from before the trainer dropped its canvases: /trajectories/image (K, H, W) holds the first
  // K test samples of the run's task and seed.
  Batch b;
  {
    RunFile f(run, RunFile::Mode::kReadWrite);
    REQUIRE(!f.Exists("/trajectories/image"));
    const auto labels = f.ReadArray<std::int32_t>("/trajectories/label");
    const auto attrs = f.Attributes("/");
    const DigitDataset data = LoadDigitDataset(Data());
    const auto task = Tasks().Get(attrs.at("env")).make(data, std::stoull(attrs.at("seed")));
    const std::vector<std::int64_t> idx = {0, 1};
    REQUIRE(labels.size() == idx.size());
    b.Resize(2, task->height(), task->width());
    RenderRows(*task, Split::kTest, idx.data(), 0, 2, 0, b);
    f.WriteArray<float>("/trajectories/image", {2, 60, 60}, b.images.data());
    f.Commit();
  }
  auto r = RunGlimpse("slim --run " + run + " --out " + small + " --force");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("logged canvases left out"));
  {
    const RunFile full(run, RunFile::Mode::kReadOnly), f(small, RunFile::Mode::kReadOnly);
    CHECK(!f.Exists("/trajectories/image"));
    CHECK(f.ReadArray<std::int32_t>("/trajectories/label") == full.ReadArray<std::int32_t>("/trajectories/label"));
    CHECK(f.Exists("/trajectories/locations"));
  }
  CHECK(RunGlimpse("verify " + small).code == 0);
  r = RunGlimpse("slim --run " + run + " --out " + small + " --force --curves-only");
  CHECK_THAT(r.output, Catch::Contains("curves only; logged canvases left out"));
  CHECK(!RunFile(small, RunFile::Mode::kReadOnly).Exists("/trajectories/image"));
  // One pixel the task does not render: the stored canvases are all there is, so they stay.
  b.images[5] += 0.25f;
  {
    RunFile f(run, RunFile::Mode::kReadWrite);
    f.WriteArray<float>("/trajectories/image", {2, 60, 60}, b.images.data());
    f.Commit();
  }
  r = RunGlimpse("slim --run " + run + " --out " + small + " --force");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("logged canvases kept (the task renders other canvases)"));
  CHECK(RunFile(small, RunFile::Mode::kReadOnly).ReadArray<float>("/trajectories/image") == b.images);
}

TEST_CASE("slim stores the parameters once when the best checkpoint is the last one", "[cli][slim]") {
  const std::string run = TempDir() + "/glimpse_cli_slim1_run.h5", small = TempDir() + "/glimpse_cli_slim1.h5";
  std::remove(run.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 1" + Small()).code == 0);  // one evaluation: best = last
  REQUIRE(RunGlimpse("slim --run " + run + " --out " + small + " --force").code == 0);
  const std::string slot = glimpse::CheckpointGroup(glimpse::RunFile(small, glimpse::RunFile::Mode::kReadOnly));
  const hid_t f = H5Fopen(small.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  H5O_info_t best, last;
  REQUIRE(H5Oget_info_by_name(f, "/best/params", &best, H5P_DEFAULT) >= 0);
  REQUIRE(H5Oget_info_by_name(f, (slot + "/params").c_str(), &last, H5P_DEFAULT) >= 0);
  CHECK(best.addr == last.addr);  // one dataset, two names
  CHECK(best.rc == 2);
  H5Fclose(f);
  CHECK(RunGlimpse("verify " + small).code == 0);
  const std::string b = LastLine(RunGlimpse("eval --no-record --checkpoint best --run " + small).output);
  CHECK(b == LastLine(RunGlimpse("eval --no-record --checkpoint last --run " + small).output));
  CHECK(b == LastLine(RunGlimpse("eval --no-record --checkpoint best --run " + run).output));
}

TEST_CASE("slim --best-only keeps the validation-selected parameters, which evaluate and start a run", "[cli][slim]") {
  const std::string run = TempDir() + "/glimpse_cli_best_run.h5", small = TempDir() + "/glimpse_cli_best_slim.h5",
                    best = TempDir() + "/glimpse_cli_best_only.h5", next = TempDir() + "/glimpse_cli_best_next.h5";
  for (const auto& p : {run, small, best, next}) std::remove(p.c_str());
  REQUIRE(RunGlimpse("train --out " + run + " --epochs 3" + Small()).code == 0);
  REQUIRE(RunGlimpse("slim --run " + run + " --out " + small).code == 0);
  auto r = RunGlimpse("slim --run " + run + " --out " + best + " --best-only");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("validation-selected parameters only"));
  CHECK(std::filesystem::file_size(best) < std::filesystem::file_size(small));
  {
    const RunFile full(run, RunFile::Mode::kReadOnly), f(best, RunFile::Mode::kReadOnly);
    for (const auto& g : CheckpointGroups()) CHECK(!f.Exists(g));
    CHECK(f.ReadArray<float>(std::string(kBestGroup) + "/params") ==
          full.ReadArray<float>(std::string(kBestGroup) + "/params"));
    CHECK(f.ReadSeries("/eval", "val_error") == full.ReadSeries("/eval", "val_error"));
    CHECK(f.ReadArray<std::int32_t>("/best_test/answers") == full.ReadArray<std::int32_t>("/best_test/answers"));
    CHECK(f.Attributes("/").at("epochs_done") == "3");
    CHECK_THAT(f.Attributes("/").at("slim"), Catch::Contains("best-only"));
  }
  CHECK(RunGlimpse("verify " + best).code == 0);
  CHECK(LastLine(RunGlimpse("summarize --status " + best).output) == "finished");
  CHECK_THAT(RunGlimpse("summarize " + best).output, Catch::Contains("| 3/3 |"));
  // The selected model evaluates as the full run's does; the last checkpoint is not there to evaluate.
  const std::string selected = LastLine(RunGlimpse("eval --no-record --checkpoint best --run " + run).output);
  CHECK(LastLine(RunGlimpse("eval --no-record --checkpoint best --run " + best).output) == selected);
  r = RunGlimpse("eval --no-record --run " + best);
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("validation-selected parameters only") && Catch::Contains("--checkpoint best"));
  r = RunGlimpse("train --resume " + best + " --epochs 4");
  CHECK(r.code == 1);
  // A curriculum starts from the copy with the parameters it would take from the full run (/best).
  r = RunGlimpse("train --out " + next + " --epochs 1 --init-from " + best + Small());
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("validation-selected"));
  // It copies again as best-only (its note kept) or as curves; a run never evaluated has no /best to keep.
  const std::string again = TempDir() + "/glimpse_cli_best_again.h5";
  REQUIRE(RunGlimpse("slim --run " + best + " --out " + again + " --force --best-only").code == 0);
  CHECK(RunFile(again, RunFile::Mode::kReadOnly).Attributes("/").at("slim") ==
        RunFile(best, RunFile::Mode::kReadOnly).Attributes("/").at("slim"));
  r = RunGlimpse("slim --run " + best + " --out " + again + " --force");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("a best-only copy: --best-only or --curves-only copies it again"));
  REQUIRE(RunGlimpse("slim --run " + best + " --out " + again + " --force --curves-only").code == 0);
  CHECK(!RunFile(again, RunFile::Mode::kReadOnly).Exists(kBestGroup));
  r = RunGlimpse("slim --run " + run + " --out " + again + " --force --best-only --curves-only");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("pass one of them"));
}
