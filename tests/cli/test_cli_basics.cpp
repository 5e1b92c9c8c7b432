#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <fstream>

#include "envs/tasks.h"
#include "src/attention/attentions.h"
#include "src/core/optimizer.h"
#include "src/core/schedule.h"
#include "src/model/cores.h"
#include "src/rl/baseline.h"
#include "tests/cli/cli_helpers.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("glimpse --help lists the subcommands", "[cli]") {
  const auto r = RunGlimpse("--help");
  CHECK(r.code == 0);
  for (const char* c : {"info", "render", "bench"}) CHECK_THAT(r.output, Catch::Contains(c));
  CHECK_THAT(r.output, Catch::Contains("--version"));  // the usage text names it
  CHECK(RunGlimpse("").code == 2);
  CHECK(RunGlimpse("frobnicate").code == 2);
  const auto v = RunGlimpse("--version");
  CHECK(v.code == 0);
  CHECK_THAT(v.output, Catch::StartsWith("glimpse ") && Catch::Contains("commit"));
}

TEST_CASE("train --help lists every registered kind of every axis with its help", "[cli][registry]") {
  const auto r = RunGlimpse("train --help");
  REQUIRE(r.code == 0);
  auto squeeze = [](std::string t) {  // --help wraps its lines: compare without white space
    t.erase(std::remove_if(t.begin(), t.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
            t.end());
    return t;
  };
  const std::string help = squeeze(r.output);
  auto listed = [&](const auto& registry) {
    for (const auto& k : registry) {
      INFO(registry.option() << " " << k.name);
      CHECK_THAT(help, Catch::Contains(squeeze(k.name + " (" + k.help + ")")));
      for (const auto& o : k.options) CHECK_THAT(help, Catch::Contains("--" + o.name));  // its own options
    }
  };
  listed(Tasks());
  listed(Attentions<float>());
  listed(Cores<float>());
  listed(Baselines());
  listed(Optimizers());
  listed(Schedules());
  CHECK_THAT(r.output, Catch::Contains("--std"));  // the Gaussian policy's own option
}

TEST_CASE("bench --help names all three measurements", "[cli][bench]") {
  const auto r = RunGlimpse("bench --help");
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("train|env|sensors"));
}

TEST_CASE("glimpse <command> --help lists options with defaults", "[cli]") {
  const auto r = RunGlimpse("render --help");
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("--env") && Catch::Contains("[default=mnist28]"));
}

TEST_CASE("Bad input to render: a clear message and a non-zero exit", "[cli]") {
  const std::string out = TempDir() + "/glimpse_cli_render.png";
  auto r = RunGlimpse("render --env cluttered200 --out " + out + " --force");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("option --env: expected mnist28|") && Catch::Contains("found 'cluttered200'"));
  r = RunGlimpse("render --env mnist28 --data-dir /nonexistent --out " + out + " --force");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("/nonexistent") && Catch::Contains("does not exist"));
  r = RunGlimpse("render --bogus 1 --out " + out);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains("bogus"));
}

#include <algorithm>
#include <cctype>
#include <fstream>

#include "envs/idx.h"
#include "tests/envs/fake_data.h"

namespace {
std::string FakeDataDir() { return WriteFakeDataDir(TempDir() + "/glimpse_cli_fake_data"); }
}  // namespace

TEST_CASE("render writes a PNG and never overwrites without --force", "[cli]") {
  const std::string dir = FakeDataDir(), out = TempDir() + "/glimpse_cli_render_ok.png";
  std::remove(out.c_str());
  auto r = RunGlimpse("render --env cluttered60 --count 5 --seed 2 --data-dir " + dir + " --out " + out);
  CHECK(r.code == 0);
  std::ifstream f(out, std::ios::binary);
  char sig[8] = {};
  f.read(sig, 8);
  CHECK(std::string(sig + 1, 3) == "PNG");
  r = RunGlimpse("render --env cluttered60 --count 5 --data-dir " + dir + " --out " + out);
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("--force"));
  // --config: the task and seed from an INI file, the command line still winning.
  const std::string ini = TempDir() + "/glimpse_cli_render.ini";
  std::ofstream(ini) << "env = translated60\nseed = 2\ndata-dir = " << dir << "\n";
  r = RunGlimpse("render --config " + ini + " --count 5 --out " + out + " --force");
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("5 translated60 samples"));
  r = RunGlimpse("render --config " + ini + " --env mnist28 --count 5 --out " + out + " --force");
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("5 mnist28 samples"));
  // --scale enlarges the picture (5 tiles of 28 x 28: 2 columns, 3 rows, 62 x 92; with --labels 7 rows
  // more per tile, 3 columns and 2 rows: 92 x 76, times 3), and a scale outside 1..16 is refused first.
  r = RunGlimpse("render --env mnist28 --count 5 --data-dir " + dir + " --out " + out + " --force");
  CHECK_THAT(r.output, Catch::Contains("(5 mnist28 samples, 62x92)"));
  r = RunGlimpse("render --env mnist28 --count 5 --scale 3 --labels --data-dir " + dir + " --out " + out + " --force");
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("(5 mnist28 samples, 276x228)"));
  r = RunGlimpse("render --env mnist28 --scale 17 --data-dir /nonexistent --out " + out + " --force");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("option --scale: expected a value in [1, 16], found 17"));
}
