// Training-image translation (data augmentation): a Task that renders its inner task's sample and,
// for the training split only, moves the whole canvas by an offset (dy, dx) drawn uniformly from
// {-S, ..., S}^2 per sample and epoch. What leaves the canvas is lost, what enters is black (0); the
// boxes move with it, clipped to the canvas. Validation and test samples are the inner task's,
// unchanged, so errors stay comparable with runs without the shift.
//
// Like every task it is a pure function of (split, index, epoch, seed): the offset comes from its own
// stream ("train-shift"), keyed like the inner task's sample, so threads and resume see the same image.
#pragma once

#include <cstdint>
#include <memory>

#include "envs/task.h"

namespace glimpse {

class TrainShift : public Task {
 public:
  // max_shift S in [1, min(H, W) - 1] pixels.
  TrainShift(std::unique_ptr<Task> inner, int max_shift, std::uint64_t seed);

  int height() const override { return inner_->height(); }
  int width() const override { return inner_->width(); }
  int size(Split split) const override { return inner_->size(split); }
  int classes() const override { return inner_->classes(); }
  int Decode(int answer, int* labels) const override { return inner_->Decode(answer, labels); }
  int objects() const override { return inner_->objects(); }
  int Answer(const int* labels) const override { return inner_->Answer(labels); }
  SampleInfo Render(Split split, std::int64_t index, std::int64_t epoch, float* out) const override;

  // The offset of training sample (index, epoch), in pixels: out[y][x] = in[y - dy][x - dx].
  void Offset(std::int64_t index, std::int64_t epoch, int* dy, int* dx) const;

 private:
  std::unique_ptr<Task> inner_;
  int max_shift_;
  std::uint64_t seed_;
};

// task itself when max_shift is 0, else task inside a TrainShift (--train-shift).
std::unique_ptr<Task> WithTrainShift(std::unique_ptr<Task> task, int max_shift, std::uint64_t seed);

}  // namespace glimpse
