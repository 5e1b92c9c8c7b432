#include "envs/train_shift.h"

#include <algorithm>
#include <cstring>

#include "src/core/error.h"
#include "src/core/rng.h"

namespace glimpse {
namespace {

// img (H, W) moved by (dy, dx) in place: rows in the order that reads each source row before it is
// overwritten, each row one memmove plus the black margins. |dy| < H, |dx| < W.
void ShiftInPlace(float* img, int H, int W, int dy, int dx) {
  const int x0 = std::max(0, dx), x1 = std::min(W, W + dx);  // destination columns with a source
  for (int i = 0; i < H; ++i) {
    const int y = dy > 0 ? H - 1 - i : i, sy = y - dy;
    float* dst = img + static_cast<std::size_t>(y) * W;
    if (sy < 0 || sy >= H) {
      std::fill(dst, dst + W, 0.0f);
      continue;
    }
    std::memmove(dst + x0, img + static_cast<std::size_t>(sy) * W + x0 - dx, sizeof(float) * (x1 - x0));
    std::fill(dst, dst + x0, 0.0f);
    std::fill(dst + x1, dst + W, 0.0f);
  }
}

Box Moved(Box b, int dy, int dx, int H, int W) {
  if (b.x1 <= b.x0 || b.y1 <= b.y0) return b;  // empty (blank image, absent slot)
  b.x0 = std::clamp(b.x0 + dx, 0, W), b.x1 = std::clamp(b.x1 + dx, 0, W);
  b.y0 = std::clamp(b.y0 + dy, 0, H), b.y1 = std::clamp(b.y1 + dy, 0, H);
  return b;
}

}  // namespace

TrainShift::TrainShift(std::unique_ptr<Task> inner, int max_shift, std::uint64_t seed)
    : inner_(std::move(inner)), max_shift_(max_shift), seed_(seed) {
  Check(max_shift_ >= 1 && max_shift_ < std::min(inner_->height(), inner_->width()),
        "option --train-shift: expected 0 (off) to ", std::min(inner_->height(), inner_->width()) - 1, " pixels for a ",
        inner_->height(), "x", inner_->width(), " canvas, found ", max_shift_);
}

void TrainShift::Offset(std::int64_t index, std::int64_t epoch, int* dy, int* dx) const {
  const std::uint64_t key = (static_cast<std::uint64_t>(epoch) << 32) ^ static_cast<std::uint64_t>(index);
  Rng rng(seed_ ^ (key * 0x9e3779b97f4a7c15ULL), "train-shift");
  const auto n = static_cast<std::uint64_t>(2 * max_shift_ + 1);
  *dy = static_cast<int>(rng.UniformInt(n)) - max_shift_;
  *dx = static_cast<int>(rng.UniformInt(n)) - max_shift_;
}

SampleInfo TrainShift::Render(Split split, std::int64_t index, std::int64_t epoch, float* out) const {
  SampleInfo info = inner_->Render(split, index, epoch, out);
  if (split != Split::kTrain) return info;
  int dy = 0, dx = 0;
  Offset(index, epoch, &dy, &dx);
  const int H = height(), W = width();
  ShiftInPlace(out, H, W, dy, dx);
  info.box = Moved(info.box, dy, dx, H, W);
  for (Box& b : info.boxes) b = Moved(b, dy, dx, H, W);
  return info;
}

std::unique_ptr<Task> WithTrainShift(std::unique_ptr<Task> task, int max_shift, std::uint64_t seed) {
  if (max_shift == 0) return task;
  return std::make_unique<TrainShift>(std::move(task), max_shift, seed);
}

}  // namespace glimpse
