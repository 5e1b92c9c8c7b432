// Every registered task (envs/tasks.h) through the one Task interface, and the Batch it renders into.
#include <catch2/catch.hpp>

#include "envs/batch.h"
#include "envs/tasks.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("Every registered task conforms to Task: shape, range, labels, determinism, fixed evaluation splits",
          "[envs][task][registry]") {
  const DigitDataset data = NoiseDigits(100, 50, 1);
  REQUIRE(Tasks().kinds().size() >= 5);
  for (const TaskKind& kind : Tasks()) {
    INFO(kind.name);
    CHECK(!kind.help.empty());
    const std::unique_ptr<Task> task = kind.make(data, 7), again = kind.make(data, 7);
    CHECK(task->height() == kind.height);
    CHECK(task->classes() == kind.classes);
    CHECK(task->width() == kind.width);
    CHECK(task->size(Split::kVal) == 10000);
    CHECK(task->size(Split::kTest) == 50);
    std::vector<float> a(task->pixels()), b(task->pixels());
    for (Split split : {Split::kTrain, Split::kVal, Split::kTest}) {
      INFO(SplitName(split));
      for (int i = 0; i < 10; ++i) {
        const SampleInfo s = task->Render(split, i, 3, a.data());
        for (float v : a) REQUIRE((v >= 0.0f && v <= 1.0f));
        CHECK((s.label >= 0 && s.label < kind.classes));
        const SampleInfo t = again->Render(split, i, 3, b.data());
        REQUIRE(a == b);  // a pure function of (split, index, epoch, seed)
        CHECK(t.label == s.label);
        CHECK(t.query == s.query);
        if (split != Split::kTrain) {  // evaluation samples ignore the epoch
          task->Render(split, i, 4, b.data());
          REQUIRE(a == b);
        }
      }
    }
    CHECK_THROWS_WITH(task->Render(Split::kTest, 50, 0, a.data()), Catch::Contains("outside the test"));
  }
}

TEST_CASE("RenderRows fills a Batch: images, labels and queries of the given rows", "[envs][batch]") {
  const DigitDataset data = NoiseDigits(100, 50, 1);
  for (const TaskKind& kind : Tasks()) {
    INFO(kind.name);
    const std::unique_ptr<Task> task = kind.make(data, 1);
    Batch b;
    b.Resize(3, task->height(), task->width());
    const std::int64_t idx[3] = {4, 0, 9};
    RenderRows(*task, Split::kTest, idx, 0, 2, 0, b);  // two ranges, as two threads would
    RenderRows(*task, Split::kTest, idx, 2, 3, 0, b);
    std::vector<float> img(task->pixels());
    for (int r = 0; r < 3; ++r) {
      const SampleInfo s = task->Render(Split::kTest, idx[r], 0, img.data());
      CHECK(std::equal(img.begin(), img.end(), b.image(r)));
      CHECK(b.labels[r] == s.label);
      CHECK(b.queries[r] == s.query);
    }
    CHECK_THROWS_WITH(RenderRows(*task, Split::kTest, idx, 0, 4, 0, b), Catch::Contains("out of range"));
  }
}

TEST_CASE("An unknown task is refused with the registered names", "[envs][task][registry]") {
  CHECK_THROWS_WITH(
      Tasks().Get("cluttered200"),
      Catch::Contains(
          "option --env: expected mnist28|translated60|cluttered60|cluttered100|translated100|pairs100|sum100|strip5"));
}
