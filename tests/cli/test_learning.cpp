// Learning happens, on real MNIST (issue 20): the default experiment's RAM, trained for a few
// seconds, is far better than chance. Needs data/mnist (scripts/setup fetches it): a missing data set
// fails the test rather than skipping it.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <string>

#include "tests/cli/cli_helpers.h"

using namespace glimpse::test;

TEST_CASE("The default RAM learns mnist28 on real MNIST within seconds", "[cli][learning]") {
  struct stat st;
  const std::string mnist = std::string(GLIMPSE_SOURCE_DIR) + "/data/mnist/train-images-idx3-ubyte";
  INFO("real MNIST is needed: run scripts/setup");
  REQUIRE(stat(mnist.c_str(), &st) == 0);
  const std::string run = TempDir() + "/glimpse_learning_mnist28.h5";
  // experiments/ram_mnist28's configuration, 2 epochs of 20,000 images (3 s on the development
  // machine; 32.8% test error there, chance is 90%).
  const auto r = RunGlimpse("train --config experiments/ram_mnist28/config.ini --out " + run +
                            " --force --epochs 2 --train-images 20000 --val-images 1000 --threads 2");
  REQUIRE(r.code == 0);
  const auto at = r.output.rfind("test_error=");
  REQUIRE(at != std::string::npos);
  const double error = std::atof(r.output.c_str() + at + 11);
  INFO("test error " << error);
  CHECK(error < 0.5);
}
