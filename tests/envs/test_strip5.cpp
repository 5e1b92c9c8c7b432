// The strip5 task: deterministic from the seed, answers consistent with the slots' labels, pixels
// copied from the source digits, the query present in about half the strips and at most once.
#include <catch2/catch.hpp>
#include <set>

#include "envs/strip5.h"
#include "tests/envs/fake_data.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

// Digit i of a split has value 1 + i % 250 in its rectangle, label i % 10: pixels identify it.
DigitDataset Data() {
  auto value = [](int i) { return static_cast<std::uint8_t>(1 + i % 250); };
  return RectDigits(2000, 500, value, value);
}

}  // namespace

TEST_CASE("strip5 samples follow the task's rules", "[envs][strip5]") {
  const DigitDataset data = Data();
  const Strip5Task task(data, 3);
  CHECK(task.height() == 28);
  CHECK(task.width() == 140);
  CHECK(task.size(Split::kTrain) == 2000);
  CHECK(task.size(Split::kVal) == 10000);
  CHECK(task.size(Split::kTest) == 500);
  std::vector<float> img(task.pixels());
  int present = 0;
  std::set<int> queries, answers;
  const int n = 2500;  // every training strip and every test strip once
  for (int i = 0; i < n; ++i) {
    const Split split = i < 2000 ? Split::kTrain : Split::kTest;
    const StripSample s = task.RenderStrip(split, i < 2000 ? i : i - 2000, 0, img.data());
    queries.insert(s.query);
    answers.insert(s.answer);
    int holding = 0;
    for (int j = 0; j < StripSample::kSlots; ++j) {
      holding += s.labels[j] == s.query;
      // The slot's pixels are its source digit's (the rectangle's value identifies the digit).
      const IdxImages& im = split == Split::kTest ? data.test_images : data.train_images;
      const IdxLabels& lb = split == Split::kTest ? data.test_labels : data.train_labels;
      CHECK(lb.labels[s.digits[j]] == s.labels[j]);
      CHECK(img[10 * 140 + j * 28 + 8] == Approx(im.image(s.digits[j])[10 * 28 + 8] / 255.0));
      CHECK(img[0 * 140 + j * 28] == 0.0f);
      if (split == Split::kTrain) CHECK(s.digits[j] < 2000);  // never a validation digit
    }
    if (s.answer == StripSample::kAbsent) {
      CHECK(holding == 0);
    } else {
      CHECK(holding == 1);
      CHECK(s.labels[s.answer] == s.query);
      ++present;
    }
  }
  CHECK(queries.size() == 10);
  CHECK(answers.size() == 6);
  CHECK(std::abs(present / static_cast<double>(n) - 0.5) < 0.04);  // 4 standard errors
}

TEST_CASE("strip5 is a pure function of (split, index, epoch, seed)", "[envs][strip5]") {
  const DigitDataset data = Data();
  const Strip5Task a(data, 3), b(data, 3), c(data, 4);
  std::vector<float> x(a.pixels()), y(a.pixels());
  auto same = [&](const Strip5Task& t1, Split s1, std::int64_t e1, const Strip5Task& t2, Split s2, std::int64_t e2,
                  int index) {
    const StripSample p = t1.RenderStrip(s1, index, e1, x.data()), q = t2.RenderStrip(s2, index, e2, y.data());
    return x == y && p.query == q.query && p.answer == q.answer && p.digits == q.digits;
  };
  int train_epoch_same = 0, other_seed_same = 0;
  for (int i = 0; i < 50; ++i) {
    CHECK(same(a, Split::kTrain, 2, b, Split::kTrain, 2, i));
    CHECK(same(a, Split::kTest, 0, b, Split::kTest, 7, i));  // test strips ignore the epoch
    CHECK(same(a, Split::kVal, 1, b, Split::kVal, 5, i));
    train_epoch_same += same(a, Split::kTrain, 0, a, Split::kTrain, 1, i);
    other_seed_same += same(a, Split::kTest, 0, c, Split::kTest, 0, i);
  }
  CHECK(train_epoch_same == 0);  // training strips are fresh each epoch
  CHECK(other_seed_same == 0);
  CHECK_THROWS_WITH(a.Render(Split::kTest, 500, 0, x.data()), Catch::Contains("outside the test split"));
}
