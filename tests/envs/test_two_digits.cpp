// The two-digit tasks (issue 23): pairs100 and sum100. Two digits of the same split at places whose
// 28-pixel frames share no column, read left to right; the answer is 10 a + b (pairs100) or a + b
// (sum100); the second digit never the first, and from the same split, so the splits' digits stay
// disjoint; both digits' pixels are on the canvas; one-digit tasks are unchanged.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "envs/image_task.h"
#include "envs/tasks.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("pairs100 and sum100: two digits left to right, answers, disjoint splits", "[envs][task][two-digits]") {
  const DigitDataset data = NoiseDigits(10100, 60, 3);
  for (const TaskSpec& spec : {kPairs100, kSum100}) {
    INFO(spec.name);
    const ImageTask task(spec, data, 5);
    CHECK(task.classes() == (spec.answer == TaskSpec::Answer::kPair ? 100 : 19));
    CHECK(Tasks().Get(spec.name).classes == task.classes());
    std::vector<float> img(task.pixels());
    for (Split split : {Split::kTrain, Split::kVal, Split::kTest}) {
      INFO(SplitName(split));
      const int first = split == Split::kVal ? data.train_images.count - 10000 : 0, count = task.size(split);
      for (int i = 0; i < 40; ++i) {
        const SampleInfo s = task.Render(split, i, 2, img.data());
        REQUIRE(s.objects == 2);
        // Both digits of this split, and two different ones.
        CHECK(s.digit == first + i);
        CHECK((s.digit2 >= first && s.digit2 < first + count));
        CHECK(s.digit2 != s.digit);
        // Left to right, the two frames apart: the tight boxes lie in disjoint column ranges.
        CHECK(s.boxes[0].x1 <= s.boxes[1].x0);
        CHECK(s.box.x0 == s.boxes[0].x0);
        const IdxLabels& labels = split == Split::kTest ? data.test_labels : data.train_labels;
        const int a = s.labels[0], b = s.labels[1];
        CHECK(((a == labels.labels[s.digit] && b == labels.labels[s.digit2]) ||
               (b == labels.labels[s.digit] && a == labels.labels[s.digit2])));
        CHECK(s.label == (spec.answer == TaskSpec::Answer::kPair ? 10 * a + b : a + b));
        // Each digit is drawn where its box says: the box holds bright pixels.
        for (const Box& box : s.boxes) {
          float peak = 0;
          for (int y = box.y0; y < box.y1; ++y)
            for (int x = box.x0; x < box.x1; ++x) peak = std::max(peak, img[y * task.width() + x]);
          CHECK(peak > 0.5f);
        }
      }
    }
  }
  // A one-digit task keeps one object and its label.
  const ImageTask single(kCluttered100, data, 5);
  std::vector<float> img(single.pixels());
  const SampleInfo s = single.Render(Split::kTest, 3, 0, img.data());
  CHECK(s.objects == 1);
  CHECK(s.digit2 == -1);
  CHECK(s.labels[0] == s.label);
}

TEST_CASE("Two digits need a canvas two digits wide", "[envs][task][two-digits]") {
  const DigitDataset data = NoiseDigits(10100, 60, 3);
  TaskSpec narrow = kPairs100;
  narrow.canvas = 50;
  CHECK_THROWS_WITH(ImageTask(narrow, data, 1), Catch::Contains("at least two digits wide"));
}

TEST_CASE("A pairs100 answer decodes into its two digits, a sum does not", "[envs][task][two-digits]") {
  const DigitDataset data = NoiseDigits(10100, 60, 3);
  int labels[2] = {-1, -1};
  CHECK(ImageTask(kPairs100, data, 1).Decode(47, labels) == 2);
  CHECK((labels[0] == 4 && labels[1] == 7));
  CHECK(ImageTask(kSum100, data, 1).Decode(11, labels) == 0);
  CHECK(ImageTask(kCluttered100, data, 1).Decode(3, labels) == 0);
}
