#include "envs/batch.h"

#include <utility>

#include "src/core/error.h"

namespace glimpse {

void Batch::Resize(int r, int h, int w) {
  Check(r >= 0 && h >= 1 && w >= 1, "batch shape (", r, ", ", h, ", ", w, ") is not a batch of images");
  rows = r, height = h, width = w;
  const std::size_t n = static_cast<std::size_t>(r);
  if (images.size() < n * h * w) images.resize(n * h * w);
  if (labels.size() < n) labels.resize(n), queries.resize(n), info.resize(n);
}

void RenderRows(const Task& task, Split split, const std::int64_t* indices, int first, int last, std::int64_t epoch,
                Batch& b) {
  Check(0 <= first && first <= last && last <= b.rows, "batch rows [", first, ", ", last, ") out of range of ", b.rows);
  Check(b.height == task.height() && b.width == task.width(), "batch of ", b.height, "x", b.width,
        " images for a task of ", task.height(), "x", task.width());
  for (int r = first; r < last; ++r) {
    b.info[r] = task.Render(split, indices[r], epoch, b.image(r));
    b.labels[r] = b.info[r].label;
    b.queries[r] = b.info[r].query;
  }
}

void ShuffleEpoch(Rng& data, std::vector<std::int64_t>& order) {
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int64_t>(i);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[data.UniformInt(i)]);
}

std::vector<std::int64_t> EpochOrder(std::uint64_t seed, std::int64_t n, std::int64_t epoch) {
  Check(n >= 1 && epoch >= 0, "EpochOrder: expected n >= 1 and epoch >= 0, found n = ", n, ", epoch = ", epoch);
  Rng data(seed, "data");
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  for (std::int64_t e = 0; e <= epoch; ++e) ShuffleEpoch(data, order);
  return order;
}

}  // namespace glimpse
