// The rules every reader of run files applies (src/store/run_rules.h; glimpse.runs calls the same
// code through glimpse._core, tests/scripts/test_python_tools.sh): selection by validation error, the
// configuration key's options, the checkpoint slot a resume loads, and resealing a file's checksum.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "src/core/error.h"
#include "src/store/file_checksum.h"
#include "src/store/run_rules.h"
#include "tests/cli/cli_helpers.h"

using namespace glimpse;

TEST_CASE("a run is selected by its first lowest finite validation error", "[unit]") {
  CHECK(SelectedEvaluation({0.3, 0.2, 0.25, 0.2}) == 1);  // the first of two equal minima
  CHECK(SelectedEvaluation({NAN, 0.5, NAN, 0.4}) == 3);   // a NaN evaluation is never selected
  CHECK(SelectedEvaluation({NAN, NAN}) == 2);             // none: the size
  CHECK(SelectedEvaluation({}) == 0);
}

TEST_CASE("the configuration key leaves out the seed, how a run ran and the file's metadata", "[unit]") {
  for (const char* name : {"seed", "run-id", "threads", "data-dir", "test-every", "grad-norms", "source_commit",
                           "stopped_at_target", "rollback_1", "init_from_params"})
    CHECK_FALSE(IsConfigurationOption(name));
  for (const char* name : {"env", "attention", "lr", "epochs", "glimpses", "seeds"}) CHECK(IsConfigurationOption(name));
}

TEST_CASE("a per-seed --init-from source reads with its own seed as {seed} in the configuration key", "[unit]") {
  const std::string row = "results/benchmark/rows_stage/runs/soft-s{seed}.h5";
  CHECK(ConfigurationValue("init-from", "results/benchmark/rows_stage/runs/soft-s14.h5", "14") == row);
  CHECK(ConfigurationValue("init-from", "results/benchmark/rows_stage/runs/soft-s3.h5", "3") == row);
  CHECK(ConfigurationValue("init-from", "results/s-s3/a-s3.h5", "3") == "results/s-s{seed}/a-s{seed}.h5");
  // another seed's source, a longer number and other options stay as written
  CHECK(ConfigurationValue("init-from", "results/x/runs/soft-s14.h5", "1") == "results/x/runs/soft-s14.h5");
  CHECK(ConfigurationValue("init-from", "results/x/runs/soft-s14.h5", "4") == "results/x/runs/soft-s14.h5");
  CHECK(ConfigurationValue("init-from", "results/x/runs/soft-s14.h5", "") == "results/x/runs/soft-s14.h5");
  CHECK(ConfigurationValue("run-id", "soft-s14", "14") == "soft-s14");
  CHECK(ConfigurationValue("init-from", "", "14").empty());
}

TEST_CASE("the configuration entries of two seeds of a curriculum row are equal", "[unit]") {
  const std::map<std::string, std::string> s14 = {
      {"seed", "14"}, {"lr", "0.001"}, {"threads", "1"}, {"init-from", "results/x/runs/soft-s14.h5"}};
  std::map<std::string, std::string> s15 = s14;
  s15["seed"] = "15", s15["threads"] = "2", s15["init-from"] = "results/x/runs/soft-s15.h5";
  const std::map<std::string, std::string> key = {{"init-from", "results/x/runs/soft-s{seed}.h5"}, {"lr", "0.001"}};
  CHECK(ConfigurationEntries(s14) == key);
  CHECK(ConfigurationEntries(s15) == key);
  s15["init-from"] = "results/x/runs/soft-s14.h5";  // seed 14's source: another configuration
  CHECK(ConfigurationEntries(s15) != key);
}

TEST_CASE("a resume loads the complete checkpoint slot with the most steps", "[unit]") {
  CHECK(ChosenCheckpointSlot({{"/checkpoint", true, 10}, {"/checkpoint_next", true, 20}}) == "/checkpoint_next");
  CHECK(ChosenCheckpointSlot({{"/checkpoint", true, 10}, {"/checkpoint_next", false, 20}}) == "/checkpoint");
  CHECK(ChosenCheckpointSlot({{"/checkpoint", true, 10}, {"/checkpoint_next", true, 10}}) == "/checkpoint");
  CHECK(ChosenCheckpointSlot({{"/checkpoint", false, 10}, {"/checkpoint_new", true, -1}}).empty());
}

TEST_CASE("resealing replaces a file's checksum trailer instead of stacking a second one", "[unit]") {
  const std::string p = test::TempDir() + "/glimpse_reseal.h5";
  const std::string body = std::string("\x89HDF\r\n\x1a\n\x02", 9) + std::string(100, 'x');
  std::ofstream(p, std::ios::binary) << body;
  AppendFileChecksum(p);
  CHECK(CheckFileChecksum(p, true));
  {  // an edit after the trailer was written (as h5py leaves a file that did not grow): refused
    std::fstream f(p, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(20);
    f.put('y');
  }
  CHECK_THROWS_WITH(CheckFileChecksum(p, true), Catch::Contains("is damaged"));
  ResealFileChecksum(p);
  CHECK(CheckFileChecksum(p, true));
  std::ifstream in(p, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(bytes.size() == body.size() + 25);  // one trailer: "\n#glimpse crc32 " + 8 hex digits + "\n"
  std::remove(p.c_str());
}
