#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <set>

#include "envs/image_task.h"
#include "src/core/error.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("Every image task: shapes, range, labels, boxes, determinism", "[envs][task]") {
  const DigitDataset data = NoiseDigits(100, 50, 1);
  for (const TaskSpec& spec : {kMnist28, kTranslated60, kCluttered60, kCluttered100, kTranslated100}) {
    INFO(spec.name);
    const ImageTask task(spec, data, 7), other_seed(spec, data, 8);
    const int C = task.spec().canvas;
    CHECK(task.height() == C);
    CHECK(task.size(Split::kTrain) == 10100 - 10000);
    CHECK(task.size(Split::kVal) == 10000);
    CHECK(task.size(Split::kTest) == 50);
    std::vector<float> a(C * C), b(C * C);
    for (Split split : {Split::kTrain, Split::kVal, Split::kTest}) {
      INFO(SplitName(split));
      int differ_seed = 0, differ_epoch = 0;
      for (int i = 0; i < 20; ++i) {
        const SampleInfo s = task.Render(split, i, 0, a.data());
        for (float v : a) REQUIRE((v >= 0.0f && v <= 1.0f));
        const auto& labels = split == Split::kTest ? data.test_labels : data.train_labels;
        CHECK(s.label == labels.labels[s.digit]);
        CHECK(s.digit == (split == Split::kVal ? 10100 - 10000 + i : i));
        CHECK((s.box.x0 >= 0 && s.box.y0 >= 0 && s.box.x1 <= C && s.box.y1 <= C));
        CHECK((s.box.x0 < s.box.x1 && s.box.y0 < s.box.y1));
        task.Render(split, i, 0, b.data());
        REQUIRE(a == b);  // the same (split, index, epoch, seed) gives the same image
        other_seed.Render(split, i, 0, b.data());
        differ_seed += a != b;
        const SampleInfo s1 = task.Render(split, i, 1, b.data());
        differ_epoch += a != b;
        CHECK(s1.label == s.label);
      }
      if (spec.translate) {
        CHECK(differ_seed == 20);
        // Training images are fresh every epoch; validation and test are fixed.
        CHECK(differ_epoch == (split == Split::kTrain ? 20 : 0));
      }
    }
    CHECK_THROWS_WITH(task.Render(Split::kTest, 50, 0, a.data()), Catch::Contains("outside the test"));
  }
}

TEST_CASE("A digit lands at a known offset, exactly", "[envs][task]") {
  const DigitDataset data = RectDigits(
      10, 3, [](int) { return std::uint8_t(255); }, [](int i) { return std::uint8_t(100 + i); });
  SECTION("mnist28 is the digit as is") {
    const ImageTask task(kMnist28, data, 1);
    std::vector<float> img(784);
    const SampleInfo s = task.Render(Split::kTest, 2, 0, img.data());
    for (int p = 0; p < 784; ++p) CHECK(img[p] == Approx(data.test_images.pixels[2 * 784 + p] / 255.0f));
    CHECK((s.box.x0 == 5 && s.box.x1 == 15 && s.box.y0 == 7 && s.box.y1 == 19));
  }
  SECTION("translated60: the rectangle sits where the box says, and nowhere else") {
    const ImageTask task(kTranslated60, data, 1);
    std::vector<float> img(3600);
    std::set<std::pair<int, int>> offsets;
    for (int i = 0; i < 3; ++i) {
      const SampleInfo s = task.Render(Split::kTest, i, 0, img.data());
      CHECK(s.box.x1 - s.box.x0 == 10);
      CHECK(s.box.y1 - s.box.y0 == 12);
      for (int y = 0; y < 60; ++y)
        for (int x = 0; x < 60; ++x) {
          const bool inside = x >= s.box.x0 && x < s.box.x1 && y >= s.box.y0 && y < s.box.y1;
          REQUIRE(img[y * 60 + x] == Approx(inside ? (100 + i) / 255.0 : 0.0));
        }
      offsets.insert({s.box.x0, s.box.y0});
    }
    CHECK(offsets.size() > 1);
  }
}

TEST_CASE("Clutter pixels come from other digits of the same split", "[envs][task]") {
  // Two test digits: every test-split clutter piece must come from the *other* test digit (all
  // pixels of test digit i are 100 + i; training digits are 50 and must never appear).
  const DigitDataset data = [] {
    auto d = RectDigits(
        10, 2, [](int) { return std::uint8_t(50); }, [](int) { return std::uint8_t(0); });
    for (int i = 0; i < 2; ++i)
      std::fill(d.test_images.pixels.begin() + i * 784, d.test_images.pixels.begin() + (i + 1) * 784,
                std::uint8_t(100 + i));
    return d;
  }();
  for (const TaskSpec& spec : {kCluttered60, kCluttered100}) {
    INFO(spec.name);
    TaskSpec clean = spec;
    clean.clutter_pieces = 0;
    const ImageTask task(spec, data, 3), clean_task(clean, data, 3);
    const int C = task.spec().canvas;
    std::vector<float> img(C * C), ref(C * C);
    for (int i = 0; i < 2; ++i) {
      task.Render(Split::kTest, i, 0, img.data());
      clean_task.Render(Split::kTest, i, 0, ref.data());
      int clutter = 0;
      for (int p = 0; p < C * C; ++p) {
        if (img[p] == ref[p]) continue;
        ++clutter;
        REQUIRE(img[p] == Approx((100 + (1 - i)) / 255.0));  // the other digit's value
      }
      CHECK(clutter > 0);
      CHECK(clutter <= task.spec().clutter_pieces * 64);
    }
  }
}

TEST_CASE("Impossible task specifications are refused with a way out", "[envs][task]") {
  const DigitDataset data = NoiseDigits(10, 5, 2);
  TaskSpec small{"tiny", 20, true, 0, 8};
  CHECK_THROWS_WITH(ImageTask(small, data, 1), Catch::Contains("smaller than a digit"));
  TaskSpec big_clutter{"bad", 60, true, 2, 40};
  CHECK_THROWS_WITH(ImageTask(big_clutter, data, 1), Catch::Contains("clutter size"));
  CHECK_THROWS_WITH(ParseSplit("dev"), Catch::Contains("expected train, val or test"));
}

TEST_CASE("Real MNIST, when fetched, has its known first labels", "[envs][task][mnist]") {
  const std::string dir = std::string(GLIMPSE_SOURCE_DIR) + "/data/mnist";
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    WARN("data/mnist not present (run scripts/setup); skipping");
    return;
  }
  const DigitDataset d = LoadDigitDataset(dir);
  CHECK(d.train_images.count == 60000);
  CHECK(d.test_images.count == 10000);
  CHECK(int(d.train_labels.labels[0]) == 5);
  CHECK(int(d.test_labels.labels[0]) == 7);
  const ImageTask task(kCluttered100, d, 1);
  CHECK(task.size(Split::kTrain) == 50000);
}

TEST_CASE("translated100 is cluttered100 without the clutter: the same digit at the same place", "[envs][task]") {
  const DigitDataset data = NoiseDigits(100, 50, 1);
  const ImageTask clean(kTranslated100, data, 5), cluttered(kCluttered100, data, 5);
  std::vector<float> a(100 * 100), b(100 * 100);
  for (Split split : {Split::kTrain, Split::kTest})
    for (int i = 0; i < 10; ++i) {
      const SampleInfo s = clean.Render(split, i, 2, a.data()), t = cluttered.Render(split, i, 2, b.data());
      CHECK((s.digit == t.digit && s.label == t.label));
      CHECK((s.box.x0 == t.box.x0 && s.box.y0 == t.box.y0 && s.box.x1 == t.box.x1 && s.box.y1 == t.box.y1));
      int differ = 0;
      for (int p = 0; p < 100 * 100; ++p) {
        REQUIRE(a[p] <= b[p]);  // clutter is pasted with max over the digit
        differ += a[p] != b[p];
      }
      CHECK(differ > 0);
      CHECK(differ <= kCluttered100.clutter_pieces * 64);
    }
}
