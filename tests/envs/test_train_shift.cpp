// --train-shift (envs/train_shift.h): training images moved by a random offset, evaluation ones not.
#include <catch2/catch.hpp>
#include <set>
#include <utility>

#include "envs/tasks.h"
#include "envs/train_shift.h"
#include "src/train/config.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("TrainShift moves training images by its offset, black where nothing enters, and leaves val and test alone",
          "[envs][task][augment]") {
  const DigitDataset data = NoiseDigits(100, 50, 1);
  for (const char* name : {"mnist28", "cluttered60", "pairs100"}) {
    INFO(name);
    const TaskKind& kind = Tasks().Get(name);
    const std::unique_ptr<Task> plain = kind.make(data, 7);
    const TrainShift shifted(kind.make(data, 7), 3, 7);
    const int H = plain->height(), W = plain->width();
    std::vector<float> a(plain->pixels()), b(plain->pixels()), c(plain->pixels());
    std::set<std::pair<int, int>> offsets;
    for (int epoch = 0; epoch < 3; ++epoch)
      for (int i = 0; i < 20; ++i) {
        const SampleInfo p = plain->Render(Split::kTrain, i, epoch, a.data());
        const SampleInfo s = shifted.Render(Split::kTrain, i, epoch, b.data());
        int dy = 0, dx = 0;
        shifted.Offset(i, epoch, &dy, &dx);
        REQUIRE((dy >= -3 && dy <= 3 && dx >= -3 && dx <= 3));
        offsets.insert({dy, dx});
        for (int y = 0; y < H; ++y)
          for (int x = 0; x < W; ++x) {
            const int sy = y - dy, sx = x - dx;
            const float want = sy >= 0 && sy < H && sx >= 0 && sx < W ? a[sy * W + sx] : 0.0f;
            REQUIRE(b[y * W + x] == want);
          }
        CHECK(s.label == p.label);
        for (int k = 0; k < p.objects; ++k) {  // the boxes move too, clipped to the canvas
          CHECK(s.boxes[k].x0 == std::clamp(p.boxes[k].x0 + dx, 0, W));
          CHECK(s.boxes[k].y1 == std::clamp(p.boxes[k].y1 + dy, 0, H));
        }
        shifted.Render(Split::kTrain, i, epoch, c.data());
        REQUIRE(b == c);  // a pure function of (split, index, epoch, seed)
      }
    CHECK(offsets.size() > 20);  // 60 draws over 49 offsets: both signs, both axes
    for (Split split : {Split::kVal, Split::kTest})
      for (int i = 0; i < 10; ++i) {
        plain->Render(split, i, 2, a.data());
        shifted.Render(split, i, 2, b.data());
        REQUIRE(a == b);
      }
  }
}

TEST_CASE("WithTrainShift: 0 is the task itself, and an offset as large as the canvas is refused",
          "[envs][task][augment]") {
  const DigitDataset data = NoiseDigits(100, 50, 1);
  std::unique_ptr<Task> task = Tasks().Get("mnist28").make(data, 1);
  const Task* raw = task.get();
  CHECK(WithTrainShift(std::move(task), 0, 1).get() == raw);
  CHECK_THROWS_WITH(WithTrainShift(Tasks().Get("mnist28").make(data, 1), 28, 1),
                    Catch::Contains("option --train-shift: expected 0 (off) to 27 pixels"));
}

TEST_CASE("The train-shift option is validated: image tasks only, less than the canvas", "[envs][task][augment]") {
  ExperimentConfig c;
  c.env = "mnist28";
  c.train_shift = 2;
  CHECK_NOTHROW(Validate(c));
  c.train_shift = 28;
  CHECK_THROWS_WITH(Validate(c), Catch::Contains("option --train-shift: expected 0 (off) to 27 pixels"));
  c.train_shift = -1;
  CHECK_THROWS_WITH(Validate(c), Catch::Contains("option --train-shift"));
  c = ExperimentConfig();
  c.env = "strip5";
  c.attention = "soft";
  c.train_shift = 1;
  CHECK_THROWS_WITH(Validate(c), Catch::Contains("strip5 is not an image task"));
}
