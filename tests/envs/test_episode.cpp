#include <catch2/catch.hpp>

#include "envs/episode.h"
#include "src/attention/retina.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("Episode: reset renders the batch, step reads through the sensor, classify rewards",
          "[envs][episode]") {
  const DigitDataset data = NoiseDigits(20, 10, 5);
  const ImageTask task(TaskByName("mnist28"), data, 1);
  const Retina<float> full(28, 1);  // one 28x28 patch at the centre is the whole image
  Episode<float> ep(task, full, 4);
  const std::int64_t idx[3] = {4, 0, 9};
  ep.Reset(Split::kTest, idx, 3, 0);
  CHECK(ep.batch() == 3);
  for (int b = 0; b < 3; ++b) CHECK(ep.labels()[b] == data.test_labels.labels[idx[b]]);
  const float loc[6] = {0, 0, 0, 0, 0, 0};
  const float* g = ep.Step(loc);
  CHECK(ep.steps() == 1);
  for (int b = 0; b < 3; ++b)
    for (int p = 0; p < 784; ++p)
      REQUIRE(g[b * 784 + p] == Approx(data.test_images.pixels[idx[b] * 784 + p] / 255.0f));
  std::int32_t actions[3] = {ep.labels()[0], (ep.labels()[1] + 1) % 10, ep.labels()[2]};
  float rewards[3];
  ep.Classify(actions, rewards);
  CHECK(rewards[0] == 1.0f);
  CHECK(rewards[1] == 0.0f);
  CHECK(rewards[2] == 1.0f);
  CHECK_THROWS_WITH(ep.Reset(Split::kTest, idx, 5, 0), Catch::Contains("episode batch size"));
}
