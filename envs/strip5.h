// The "find the digit" task (issue 11): a 28 x 140 strip of five 28 x 28 slots, each holding one
// digit, and a query digit q. The answer is the slot (0..4, left to right) that holds q, or kAbsent
// (5) when no slot does. q is uniform over 0..9; it is present in half the strips (each with
// probability 1/2), in a uniformly random slot, and at most once: the other slots hold digits of
// the nine other classes, each class uniform, each digit uniform within its class.
//
// Like ImageTask, sample (split, index, epoch) is a pure function of the data and the seed;
// training strips are drawn afresh each epoch, validation and test strips are fixed by the seed.
// Splits draw their digits from the same pools as the RAM tasks: train = training digits
// [0, 50000), val = [50000, 60000), test = the test digits; each split has as many strips as its
// pool has digits.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "envs/dataset.h"
#include "envs/task.h"

namespace glimpse {

struct StripSample {
  static constexpr int kSlots = 5;
  static constexpr int kAbsent = kSlots;       // the answer when q is in no slot
  static constexpr int kAnswers = kSlots + 1;  // slots 0..4, absent
  int query = 0;                               // q in 0..9
  int answer = kAbsent;
  std::array<int, kSlots> labels{};  // each slot's digit class
  std::array<int, kSlots> digits{};  // each slot's index in its source image file
};

class Strip5Task : public Task {
 public:
  static constexpr int kDigit = 28;  // slot side, pixels
  // Keeps a reference to data (28 x 28 digits, every class present in every split's pool).
  Strip5Task(const DigitDataset& data, std::uint64_t seed);

  int height() const override { return kDigit; }
  int width() const override { return kDigit * StripSample::kSlots; }
  int size(Split split) const override;

  // Renders strip `index` of `split` into out (28, 140), values in [0, 1]; overwrites all of out.
  StripSample RenderStrip(Split split, std::int64_t index, std::int64_t epoch, float* out) const;
  // The same as a Task: label = the answer, query = the digit asked for.
  int classes() const override;
  SampleInfo Render(Split split, std::int64_t index, std::int64_t epoch, float* out) const override;

 private:
  const IdxImages& Images(Split s) const { return s == Split::kTest ? data_.test_images : data_.train_images; }

  const DigitDataset& data_;
  std::uint64_t seed_;
  int val_first_ = 0;
  // pool_[split][class]: digit indices of that class in the split's pool.
  std::array<std::array<std::vector<int>, 10>, 3> pool_;
};

}  // namespace glimpse
