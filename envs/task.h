// The one interface every task implements (the RAM image tasks, strip5, and any new one), and the
// values it hands out. A task is immutable: sample (split, index, epoch) is a pure function of the
// task, its data and its seed; training samples are drawn afresh each epoch, validation and test
// samples ignore the epoch. envs depends on src/core alone: a task knows nothing of sensors or models.
#pragma once

#include <cstdint>
#include <string>

namespace glimpse {

enum class Split { kTrain, kVal, kTest };
Split ParseSplit(const std::string& name);  // "train" | "val" | "test"
const char* SplitName(Split s);

// Where the digit landed: tight box of its non-zero pixels, [x0, x1) x [y0, y1), canvas pixels.
struct Box {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

struct SampleInfo {
  int label = 0;   // the answer, in [0, classes)
  int query = -1;  // query tasks (strip5: the digit asked for); -1 for the others
  Box box;         // image tasks: where the digit is (two digits: the left one); strip5: the slot
                   // holding the query (empty if absent)
  int digit = 0;   // index of the (first) digit in its source image file
  // Two-digit tasks (pairs100, sum100): the digits' own labels and places, left to right; one-digit
  // tasks: objects = 1, labels[0] = label, boxes[0] = box.
  int objects = 1;
  int labels[2] = {0, 0};
  Box boxes[2];
  int digit2 = -1;  // two-digit tasks: the other digit's index in its source image file
};

class Task {
 public:
  virtual ~Task() = default;
  virtual int height() const = 0;  // H, pixels
  virtual int width() const = 0;   // W, pixels
  int pixels() const { return height() * width(); }
  virtual int size(Split split) const = 0;    // samples in the split
  virtual int classes() const { return 10; }  // answers: labels lie in [0, classes)
  // The objects' labels an answer names, left to right, into labels (at most 2); returns how many,
  // or 0 when the answer does not determine them (one-digit tasks, a sum).
  virtual int Decode(int /*answer*/, int* /*labels*/) const { return 0; }
  // Objects per canvas (SampleInfo::objects), and the answer that objects with these labels (left to
  // right, objects() of them) make: the composition a sequential agent (DRAM) names its answer by.
  virtual int objects() const { return 1; }
  virtual int Answer(const int* labels) const { return labels[0]; }
  // Renders sample `index` of `split` (for `epoch`; ignored outside train) into out (H, W), values
  // in [0, 1], overwriting all of it. Error for an index outside the split.
  virtual SampleInfo Render(Split split, std::int64_t index, std::int64_t epoch, float* out) const = 0;
};

}  // namespace glimpse
