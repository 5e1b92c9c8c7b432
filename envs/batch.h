// A minibatch of a task as values: what envs hands to the rest of a training step.
//
//   Batch b;
//   b.Resize(rows, task.height(), task.width());   // allocates only when it grows
//   RenderRows(task, Split::kTrain, indices, 0, rows, epoch, b);
//   ... b.images (rows, H, W), b.labels (rows), b.info[r].query (query tasks)
//
// RenderRows fills rows [first, last) from samples indices[first..last); disjoint ranges may be
// rendered on different threads.
#pragma once

#include <cstdint>
#include <vector>

#include "envs/task.h"
#include "src/core/rng.h"

namespace glimpse {

struct Batch {
  int rows = 0, height = 0, width = 0;
  std::vector<float> images;          // (rows, H, W), values in [0, 1]
  std::vector<std::int32_t> labels;   // (rows) answers
  std::vector<std::int32_t> queries;  // (rows) SampleInfo::query
  std::vector<SampleInfo> info;       // (rows)

  // Sets the shape; storage grows when needed and never shrinks (no allocation in a steady loop).
  void Resize(int rows, int height, int width);
  float* image(int r) { return images.data() + static_cast<std::ptrdiff_t>(r) * height * width; }
  const float* image(int r) const { return images.data() + static_cast<std::ptrdiff_t>(r) * height * width; }
};

void RenderRows(const Task& task, Split split, const std::int64_t* indices, int first, int last, std::int64_t epoch,
                Batch& batch);

// The training order of one epoch: order = 0..n-1 (n = order.size()) shuffled by Fisher-Yates with
// draws from `data` (the trainer's Rng(seed, "data"), one call per epoch in epoch order, so epoch e's
// order depends on the draws of epochs 0..e-1). Step s of the epoch trains on order[s B, (s+1) B).
void ShuffleEpoch(Rng& data, std::vector<std::int64_t>& order);

// The same order replayed from the seed (what the Python package's Task.train_order gives).
std::vector<std::int64_t> EpochOrder(std::uint64_t seed, std::int64_t n, std::int64_t epoch);

}  // namespace glimpse
