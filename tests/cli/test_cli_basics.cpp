#include <catch2/catch.hpp>

#include "tests/cli/cli_helpers.h"

using namespace glimpse::test;

TEST_CASE("glimpse --help lists the subcommands", "[cli]") {
  const auto r = RunGlimpse("--help");
  CHECK(r.code == 0);
  for (const char* c : {"info", "render", "bench"}) CHECK_THAT(r.output, Catch::Contains(c));
  CHECK(RunGlimpse("").code == 2);
  CHECK(RunGlimpse("frobnicate").code == 2);
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
}
