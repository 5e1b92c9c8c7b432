// A digit data set on disk: the four IDX files of MNIST or Fashion-MNIST in one folder, each plain
// or gzipped (train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz], t10k-...).
#pragma once

#include <string>

#include "envs/idx.h"
#include "envs/task.h"

namespace glimpse {

struct DigitDataset {
  IdxImages train_images, test_images;  // (60000, 28, 28), (10000, 28, 28) for MNIST
  IdxLabels train_labels, test_labels;  // values 0..9
};

// Loads and cross-checks the four files of `dir` (counts agree, sizes agree, labels below 10).
DigitDataset LoadDigitDataset(const std::string& dir);

// A fingerprint of the digits and labels (not of the files' paths or compression): "fnv1a64:" and 16
// hex digits over the four arrays. Stored in every run file (data_fingerprint) and checked by eval, so
// a run is never evaluated on other data without a word.
std::string DataFingerprint(const DigitDataset& d);

// Every task's splits of a data set: train is the training file's digits but its last
// kValidationDigits, val those last ones, test the test file.
constexpr int kValidationDigits = 10000;
// The first validation digit (count - kValidationDigits); throws unless the training file holds more.
int ValidationStart(const DigitDataset& d);
// The digits of split s.
int SplitDigits(const DigitDataset& d, Split s);

// The default folder for a data set name: "mnist" -> data/mnist, "fashion" -> the Debian package
// dataset-fashion-mnist's /usr/share/datasets/fashion-mnist. Throws for other names.
std::string DefaultDataDir(const std::string& dataset);

}  // namespace glimpse
