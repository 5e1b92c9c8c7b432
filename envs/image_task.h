// The RAM digit tasks (envs/README.md) as one parametrised generator.
//
// An ImageTask is immutable: sample (split, index, epoch) is a pure function of the task, the data
// and the seed. Training samples are drawn fresh every epoch (new position, new clutter); validation
// and test samples ignore the epoch, so they are fixed by the seed.
//   mnist28:      the 28x28 digit as is
//   translated60: the digit at a uniformly random position in a 60x60 black canvas
//   cluttered60:  translated60 plus 4 random 8x8 crops of other digits of the same split
//   cluttered100: a 100x100 canvas with 8 pieces of clutter
//   pairs100:     cluttered100 with two digits, the answer both labels left to right (10 a + b)
//   sum100:       the same canvas, the answer the sum of the two labels
// Splits: train = training digits [0, 50000), val = training digits [50000, 60000) (the last 10,000
// held out), test = the 10,000 test digits. Clutter comes from the same split's digits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "envs/dataset.h"
#include "envs/task.h"

namespace glimpse {

// The parameters of an image task.
struct TaskSpec {
  std::string name;
  int canvas = 28;         // canvas is canvas x canvas pixels
  bool translate = false;  // random digit position (else centred; needs canvas == digit size)
  int clutter_pieces = 0;  // pieces of clutter per image
  int clutter_size = 8;    // each piece is clutter_size x clutter_size
  // Two digits per canvas (translate only): placed where their frames share no column, read left to
  // right; the answer is the ordered pair (10 left + right, 100 classes) or the sum (19 classes).
  enum class Answer { kDigit, kPair, kSum };
  Answer answer = Answer::kDigit;
  int digits() const { return answer == Answer::kDigit ? 1 : 2; }
  int classes() const { return answer == Answer::kPair ? 100 : answer == Answer::kSum ? 19 : 10; }
};

// The four RAM tasks (registered in envs/tasks.cpp).
const TaskSpec kMnist28{"mnist28", 28, false, 0, 8};
const TaskSpec kTranslated60{"translated60", 60, true, 0, 8};
const TaskSpec kCluttered60{"cluttered60", 60, true, 4, 8};
const TaskSpec kCluttered100{"cluttered100", 100, true, 8, 8};
// cluttered100 without its clutter: the same digit at the same place for the same seed.
const TaskSpec kTranslated100{"translated100", 100, true, 0, 8};
// The two-digit tasks of issue 23 (registered in envs/tasks.cpp): cluttered100's canvas and clutter.
const TaskSpec kPairs100{"pairs100", 100, true, 8, 8, TaskSpec::Answer::kPair};
const TaskSpec kSum100{"sum100", 100, true, 8, 8, TaskSpec::Answer::kSum};

class ImageTask : public Task {
 public:
  // Keeps a reference to data, which must outlive the task. Throws Error for an impossible spec
  // (a canvas smaller than the digit, clutter larger than a digit or the canvas).
  ImageTask(TaskSpec spec, const DigitDataset& data, std::uint64_t seed);

  const TaskSpec& spec() const { return spec_; }
  int height() const override { return spec_.canvas; }
  int width() const override { return spec_.canvas; }
  int size(Split split) const override;
  int classes() const override { return spec_.classes(); }
  int Decode(int answer, int* labels) const override {  // pairs100: 10 a + b -> (a, b)
    if (spec_.answer != TaskSpec::Answer::kPair) return 0;
    labels[0] = answer / 10, labels[1] = answer % 10;
    return 2;
  }
  int objects() const override { return spec_.digits(); }
  int Answer(const int* labels) const override {  // the digit, the pair 10 a + b or the sum a + b
    return spec_.answer == TaskSpec::Answer::kPair  ? 10 * labels[0] + labels[1]
           : spec_.answer == TaskSpec::Answer::kSum ? labels[0] + labels[1]
                                                    : labels[0];
  }
  SampleInfo Render(Split split, std::int64_t index, std::int64_t epoch, float* out) const override;

 private:
  // (images, first digit, count) of a split's digit pool.
  const IdxImages& Images(Split s) const;
  const IdxLabels& Labels(Split s) const;
  int First(Split s) const { return s == Split::kVal ? val_first_ : 0; }

  TaskSpec spec_;
  const DigitDataset& data_;
  std::uint64_t seed_;
  int val_first_ = 0;
  std::vector<Box> train_boxes_, test_boxes_;  // tight box of each source digit
};

}  // namespace glimpse
