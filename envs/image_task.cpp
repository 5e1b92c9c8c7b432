#include "envs/image_task.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "envs/tasks.h"
#include "src/core/error.h"
#include "src/core/rng.h"

namespace glimpse {
namespace {

std::vector<Box> TightBoxes(const IdxImages& im) {
  std::vector<Box> boxes(im.count);
  for (int i = 0; i < im.count; ++i) {
    const std::uint8_t* p = im.image(i);
    Box b{im.cols, im.rows, 0, 0};
    for (int y = 0; y < im.rows; ++y)
      for (int x = 0; x < im.cols; ++x)
        if (p[y * im.cols + x]) {
          b.x0 = std::min(b.x0, x), b.y0 = std::min(b.y0, y);
          b.x1 = std::max(b.x1, x + 1), b.y1 = std::max(b.y1, y + 1);
        }
    if (b.x1 == 0) b = Box{0, 0, 0, 0};  // blank image
    boxes[i] = b;
  }
  return boxes;
}

}  // namespace

ImageTask::ImageTask(TaskSpec spec, const DigitDataset& data, std::uint64_t seed)
    : spec_(std::move(spec)), data_(data), seed_(seed) {
  const int dh = data.train_images.rows, dw = data.train_images.cols;
  Check(spec_.canvas >= dh && spec_.canvas >= dw, "task ", spec_.name, ": the canvas (", spec_.canvas, "x",
        spec_.canvas, ") is smaller than a digit (", dh, "x", dw, "); use a canvas of at least ", std::max(dh, dw));
  Check(spec_.translate || (spec_.canvas == dh && spec_.canvas == dw), "task ", spec_.name,
        ": a canvas larger than the digit needs translation");
  Check(spec_.digits() == 1 || (spec_.translate && spec_.canvas >= 2 * dw), "task ", spec_.name,
        ": two digits need translation and a canvas at least two digits wide, found ", spec_.canvas);
  Check(spec_.clutter_pieces >= 0, "task ", spec_.name, ": negative clutter count");
  if (spec_.clutter_pieces > 0)
    CheckRange(spec_.clutter_size, 1, std::min(dh, dw), "task " + spec_.name + ": clutter size");
  val_first_ = ValidationStart(data);
  Check(spec_.clutter_pieces == 0 || data.test_images.count >= 2, "task ", spec_.name,
        ": clutter needs at least 2 test digits, found ", data.test_images.count);
  train_boxes_ = TightBoxes(data.train_images);
  test_boxes_ = TightBoxes(data.test_images);
}

int ImageTask::size(Split s) const { return SplitDigits(data_, s); }

const IdxImages& ImageTask::Images(Split s) const { return s == Split::kTest ? data_.test_images : data_.train_images; }
const IdxLabels& ImageTask::Labels(Split s) const { return s == Split::kTest ? data_.test_labels : data_.train_labels; }

SampleInfo ImageTask::Render(Split split, std::int64_t index, std::int64_t epoch, float* out) const {
  using T = float;
  Check(index >= 0 && index < size(split), "sample index ", index, " outside the ", SplitName(split), " split of ",
        size(split));
  const IdxImages& im = Images(split);
  const int C = spec_.canvas, dh = im.rows, dw = im.cols;
  const int digit = First(split) + static_cast<int>(index);
  // One generator per sample, keyed by everything that identifies it.
  const std::uint64_t key = (static_cast<std::uint64_t>(split) << 62) ^
                            (static_cast<std::uint64_t>(split == Split::kTrain ? epoch : 0) << 32) ^
                            static_cast<std::uint64_t>(index);
  Rng rng(seed_ ^ (key * 0x9e3779b97f4a7c15ULL), "task");

  // The digit's position is drawn first, so the same sample without clutter lands in the same place.
  int oy = 0, ox = 0;
  if (spec_.translate) {
    oy = static_cast<int>(rng.UniformInt(C - dh + 1));
    ox = static_cast<int>(rng.UniformInt(C - dw + 1));
  }
  // A second digit (two-digit tasks): another of the split's digits, at a place whose frame shares no
  // column with the first's (redrawn until it does not), so "left to right" is unambiguous.
  const int pool = size(split);
  int second = -1, oy2 = 0, ox2 = 0;
  if (spec_.digits() == 2) {
    second = static_cast<int>(rng.UniformInt(pool - 1));
    if (second >= static_cast<int>(index)) ++second;
    second += First(split);
    do {
      oy2 = static_cast<int>(rng.UniformInt(C - dh + 1));
      ox2 = static_cast<int>(rng.UniformInt(C - dw + 1));
    } while (std::abs(ox2 - ox) < dw);
  }
  std::fill(out, out + static_cast<std::size_t>(C) * C, T(0));
  // Clutter: crops of other random digits of the same split, pasted with max.
  const int K = spec_.clutter_size;
  for (int p = 0; p < spec_.clutter_pieces; ++p) {
    int other = static_cast<int>(rng.UniformInt(pool - 1));
    if (other >= static_cast<int>(index)) ++other;  // never the digit itself
    const std::uint8_t* src = im.image(First(split) + other);
    const int sy = static_cast<int>(rng.UniformInt(dh - K + 1));
    const int sx = static_cast<int>(rng.UniformInt(dw - K + 1));
    const int ty = static_cast<int>(rng.UniformInt(C - K + 1));
    const int tx = static_cast<int>(rng.UniformInt(C - K + 1));
    for (int y = 0; y < K; ++y)
      for (int x = 0; x < K; ++x) {
        T& o = out[(ty + y) * C + tx + x];
        o = std::max(o, static_cast<T>(src[(sy + y) * dw + sx + x]) / T(255));
      }
  }
  auto paste = [&](int d, int py, int px) {  // a digit, with max over the clutter
    const std::uint8_t* src = im.image(d);
    for (int y = 0; y < dh; ++y)
      for (int x = 0; x < dw; ++x) {
        T& o = out[(py + y) * C + px + x];
        o = std::max(o, static_cast<T>(src[y * dw + x]) / T(255));
      }
    const Box& b = (split == Split::kTest ? test_boxes_ : train_boxes_)[d];
    return Box{b.x0 + px, b.y0 + py, b.x1 + px, b.y1 + py};
  };
  SampleInfo info;
  info.digit = digit;
  info.box = info.boxes[0] = paste(digit, oy, ox);
  info.label = info.labels[0] = Labels(split).labels[digit];
  if (second >= 0) {
    const Box b2 = paste(second, oy2, ox2);
    const int l2 = Labels(split).labels[second];
    const bool swap = ox2 < ox;  // read left to right
    info.objects = 2;
    info.digit2 = second;
    info.labels[0] = swap ? l2 : info.label, info.labels[1] = swap ? info.label : l2;
    info.boxes[0] = swap ? b2 : info.box, info.boxes[1] = swap ? info.box : b2;
    info.box = info.boxes[0];
    info.label = Answer(info.labels);
  }
  return info;
}

namespace {

TaskKind ImageTaskKind(const TaskSpec& spec, const char* help) {
  TaskKind k;
  k.name = spec.name;
  k.help = help;
  k.height = k.width = spec.canvas;
  k.classes = spec.classes();
  k.objects = spec.digits();
  k.agent = "image";
  k.make = [spec](const DigitDataset& data, std::uint64_t seed) {
    return std::make_unique<ImageTask>(spec, data, seed);
  };
  return k;
}

}  // namespace

TaskKind Mnist28Kind() { return ImageTaskKind(kMnist28, "the 28x28 digit as is"); }
TaskKind Translated60Kind() { return ImageTaskKind(kTranslated60, "the digit anywhere on a 60x60 canvas"); }
TaskKind Cluttered60Kind() { return ImageTaskKind(kCluttered60, "translated60 with 4 pieces of 8x8 clutter"); }
TaskKind Cluttered100Kind() { return ImageTaskKind(kCluttered100, "a 100x100 canvas with 8 pieces of clutter"); }
TaskKind Translated100Kind() {
  return ImageTaskKind(kTranslated100, "cluttered100 without its clutter (the digit at the same place)");
}
TaskKind Pairs100Kind() {
  return ImageTaskKind(kPairs100,
                       "two digits on cluttered100's canvas; the answer both labels, left to right (10 a + b)");
}
TaskKind Sum100Kind() {
  return ImageTaskKind(kSum100, "pairs100's canvas; the answer the sum of the two digits (19 classes)");
}

}  // namespace glimpse
