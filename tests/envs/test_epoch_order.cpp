// The training order (envs/batch.h): ShuffleEpoch is the trainer's per-epoch shuffle, and EpochOrder
// replays it from the seed, as the Python package's Task.train_order does.
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>

#include "envs/batch.h"
#include "src/core/error.h"

using namespace glimpse;

TEST_CASE("EpochOrder replays the trainer's per-epoch shuffles of the data stream", "[envs][batch]") {
  const std::int64_t n = 1000;
  Rng data(5, "data");  // the trainer's stream, one ShuffleEpoch per epoch
  std::vector<std::int64_t> order(n), previous;
  for (std::int64_t e = 0; e < 4; ++e) {
    ShuffleEpoch(data, order);
    CHECK(order == EpochOrder(5, n, e));
    std::vector<std::int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::int64_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0);
    CHECK(sorted == identity);  // a permutation
    CHECK(order != previous);   // a new one every epoch
    previous = order;
  }
  CHECK(EpochOrder(5, n, 0) != EpochOrder(6, n, 0));
  CHECK_THROWS_AS(EpochOrder(5, 0, 0), Error);
}
