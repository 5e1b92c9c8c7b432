// Small synthetic digit data sets for environment tests (no MNIST needed).
#pragma once

#include <cstdlib>
#include <functional>
#include <string>

#include "envs/dataset.h"
#include "envs/idx.h"
#include "src/core/rng.h"

namespace glimpse::test {

// train: 10,000 + extra digits, test: `test_count`; every digit is 28x28. Digit i of a split is a
// filled rectangle [5, 15) x [7, 19) (x by y) of value `value(i)`, label i % 10.
using ValueFn = std::function<std::uint8_t(int)>;
inline DigitDataset RectDigits(int extra_train, int test_count, ValueFn train_value, ValueFn test_value) {
  auto make = [](int n, const ValueFn& value, IdxImages& im, IdxLabels& lb) {
    im.count = n;
    im.rows = im.cols = 28;
    im.pixels.assign(static_cast<std::size_t>(n) * 784, 0);
    lb.labels.resize(n);
    for (int i = 0; i < n; ++i) {
      for (int y = 7; y < 19; ++y)
        for (int x = 5; x < 15; ++x) im.pixels[i * 784 + y * 28 + x] = value(i);
      lb.labels[i] = static_cast<std::uint8_t>(i % 10);
    }
  };
  DigitDataset d;
  make(10000 + extra_train, train_value, d.train_images, d.train_labels);
  make(test_count, test_value, d.test_images, d.test_labels);
  d.train_images.path = "fake-train";
  d.test_images.path = "fake-test";
  return d;
}

// Random sparse digits: each pixel non-zero with probability 0.2.
inline DigitDataset NoiseDigits(int extra_train, int test_count, std::uint64_t seed) {
  Rng rng(seed, "fake");
  auto make = [&rng](int n, IdxImages& im, IdxLabels& lb) {
    im.count = n;
    im.rows = im.cols = 28;
    im.pixels.resize(static_cast<std::size_t>(n) * 784);
    for (auto& p : im.pixels) p = rng.Uniform() < 0.2 ? static_cast<std::uint8_t>(1 + rng.UniformInt(255)) : 0;
    lb.labels.resize(n);
    for (auto& l : lb.labels) l = static_cast<std::uint8_t>(rng.UniformInt(10));
  };
  DigitDataset d;
  make(10000 + extra_train, d.train_images, d.train_labels);
  make(test_count, d.test_images, d.test_labels);
  return d;
}

// Writes NoiseDigits(extra_train, test_count, seed) as the four IDX files of folder `dir` (created).
inline std::string WriteFakeDataDir(const std::string& dir, int extra_train = 50, int test_count = 20,
                                    std::uint64_t seed = 11) {
  std::system(("mkdir -p '" + dir + "'").c_str());
  const DigitDataset d = NoiseDigits(extra_train, test_count, seed);
  WriteIdxImages(dir + "/train-images-idx3-ubyte", d.train_images);
  WriteIdxLabels(dir + "/train-labels-idx1-ubyte", d.train_labels);
  WriteIdxImages(dir + "/t10k-images-idx3-ubyte", d.test_images);
  WriteIdxLabels(dir + "/t10k-labels-idx1-ubyte", d.test_labels);
  return dir;
}

}  // namespace glimpse::test
