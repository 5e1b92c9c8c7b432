// A batched episode over an ImageTask, for any agent (ours or anyone's):
//
//   Episode<float> ep(task, sensor, /*max_batch=*/128);
//   ep.Reset(Split::kTrain, indices, B, epoch);   // B images: ep.images() (B, H, W), ep.labels() (B)
//   for (t = 0; t < T; ++t) {
//     const float* g = ep.Step(read_params);      // (B, P) -> glimpses (B, D) through the sensor
//     ... agent updates its state, picks the next read parameters ...
//   }
//   ep.Classify(actions, rewards);                // (B) class guesses -> rewards (B), 1 if right
//
// Buffers are allocated once for max_batch; Reset/Step/Classify never allocate.
#pragma once

#include <cstdint>
#include <vector>

#include "envs/image_task.h"
#include "src/attention/sensor.h"
#include "src/core/error.h"
#include "src/core/tensor.h"

namespace glimpse {

template <class T>
class Episode {
 public:
  Episode(const ImageTask& task, const Sensor<T>& sensor, int max_batch)
      : task_(task), sensor_(sensor), max_batch_(max_batch) {
    Check(max_batch >= 1, "batch size must be at least 1, found ", max_batch);
    const auto b = static_cast<std::size_t>(max_batch);
    images_.resize({b, static_cast<std::size_t>(task.height()), static_cast<std::size_t>(task.width())});
    glimpse_.resize({b, static_cast<std::size_t>(sensor.glimpse_size())});
    labels_.resize(b);
    info_.resize(b);
  }

  // Renders samples indices[0..B) of split (train: for epoch) and starts a new episode.
  void Reset(Split split, const std::int64_t* indices, int batch, std::int64_t epoch) {
    CheckRange(batch, 1, max_batch_, "episode batch size");
    Render(split, indices, 0, batch, epoch);
    Start(batch, /*prepare_sensor=*/true);
  }

  // Reset in two parts, for callers that render in parallel or run the sensor themselves:
  // Render fills rows [first, last) with samples indices[first..last) (disjoint ranges may run
  // on different threads); Start begins an episode over rows [0, batch), preparing the sensor
  // for Step only when asked (a model that runs its own sensor prepares it itself).
  void Render(Split split, const std::int64_t* indices, int first, int last, std::int64_t epoch) {
    Check(0 <= first && first <= last && last <= max_batch_, "episode rows [", first, ", ", last, ") out of range");
    for (int b = first; b < last; ++b) {
      info_[b] = task_.Render(split, indices[b], epoch, image(b));
      labels_[b] = info_[b].label;
    }
  }
  void Start(int batch, bool prepare_sensor) {
    CheckRange(batch, 1, max_batch_, "episode batch size");
    batch_ = batch;
    if (prepare_sensor) sensor_.Prepare(images_.data(), batch, task_.height(), task_.width());
    steps_ = 0;
  }

  // Reads a glimpse of every image: params (B, P) -> glimpses (B, D), valid until the next Step.
  const T* Step(const T* params) {
    sensor_.Read(images_.data(), batch_, task_.height(), task_.width(), params, glimpse_.data());
    ++steps_;
    return glimpse_.data();
  }

  // actions (B) class guesses -> rewards (B): 1 where the guess is the label, else 0.
  void Classify(const std::int32_t* actions, T* rewards) const {
    for (int b = 0; b < batch_; ++b) rewards[b] = actions[b] == labels_[b] ? T(1) : T(0);
  }

  int batch() const { return batch_; }
  int steps() const { return steps_; }
  const T* images() const { return images_.data(); }  // (B, H, W)
  T* image(int b) { return images_.data() + static_cast<std::ptrdiff_t>(b) * task_.pixels(); }
  const std::int32_t* labels() const { return labels_.data(); }  // (B)
  const SampleInfo& info(int b) const { return info_[b]; }
  const ImageTask& task() const { return task_; }
  const Sensor<T>& sensor() const { return sensor_; }

 private:
  const ImageTask& task_;
  const Sensor<T>& sensor_;
  int max_batch_, batch_ = 0, steps_ = 0;
  Ten3<T> images_;   // (max_batch, H, W)
  Mat<T> glimpse_;   // (max_batch, D)
  std::vector<std::int32_t> labels_;
  std::vector<SampleInfo> info_;
};

}  // namespace glimpse
