#include "envs/dataset.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include "src/core/error.h"

namespace glimpse {
namespace {

bool Exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

// dir/name if present, else dir/name.gz; names the plain path in the error otherwise.
std::string Locate(const std::string& dir, const std::string& name) {
  const std::string plain = dir + "/" + name;
  if (Exists(plain)) return plain;
  if (Exists(plain + ".gz")) return plain + ".gz";
  Fail("missing data file '", plain, "' (or ", name, ".gz). Run scripts/setup to fetch MNIST, ",
       "or point --data-dir at a folder holding the four IDX files.");
}

void CheckPair(const IdxImages& im, const IdxLabels& lb) {
  Check(static_cast<std::size_t>(im.count) == lb.labels.size(), "'", im.path, "' holds ", im.count, " images but '",
        lb.path, "' holds ", lb.labels.size(), " labels");
  for (std::size_t i = 0; i < lb.labels.size(); ++i)
    Check(lb.labels[i] < 10, "'", lb.path, "': label ", int(lb.labels[i]), " at index ", i,
          " is not a digit class (expected 0..9)");
}

}  // namespace

DigitDataset LoadDigitDataset(const std::string& dir) {
  Check(Exists(dir), "data directory '", dir, "' does not exist. ",
        dir == DefaultDataDir("fashion")
            ? "Install Debian's package dataset-fashion-mnist (scripts/setup does), or pass --data-dir."
            : "Run scripts/setup to fetch MNIST into data/mnist, or pass --data-dir.");
  DigitDataset d;
  d.train_images = ReadIdxImages(Locate(dir, "train-images-idx3-ubyte"));
  d.train_labels = ReadIdxLabels(Locate(dir, "train-labels-idx1-ubyte"));
  d.test_images = ReadIdxImages(Locate(dir, "t10k-images-idx3-ubyte"));
  d.test_labels = ReadIdxLabels(Locate(dir, "t10k-labels-idx1-ubyte"));
  CheckPair(d.train_images, d.train_labels);
  CheckPair(d.test_images, d.test_labels);
  Check(d.train_images.rows == d.test_images.rows && d.train_images.cols == d.test_images.cols, "train images are ",
        d.train_images.rows, "x", d.train_images.cols, " but test images are ", d.test_images.rows, "x",
        d.test_images.cols);
  return d;
}

int ValidationStart(const DigitDataset& d) {
  Check(d.train_images.count > kValidationDigits, "the training file '", d.train_images.path, "' holds ",
        d.train_images.count, " digits; expected more than ", kValidationDigits,
        " (the last 10,000 are held out for validation)");
  return d.train_images.count - kValidationDigits;
}

int SplitDigits(const DigitDataset& d, Split s) {
  switch (s) {
    case Split::kTrain:
      return d.train_images.count - kValidationDigits;
    case Split::kVal:
      return kValidationDigits;
    default:
      return d.test_images.count;
  }
}

std::string DefaultDataDir(const std::string& dataset) {
  if (dataset == "mnist") {
    // data/mnist of the working directory, else of the checkout that holds this executable
    // (build/glimpse -> ../data/mnist), else of the checkout it was built from (an installed
    // PREFIX/bin/glimpse), so glimpse runs from any folder.
    if (Exists("data/mnist")) return "data/mnist";
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
      std::string p(exe, static_cast<std::size_t>(n));
      for (int up = 0; up < 2 && p.find('/') != std::string::npos; ++up) p = p.substr(0, p.rfind('/'));
      if (Exists(p + "/data/mnist")) return p + "/data/mnist";
    }
#ifdef GLIMPSE_SOURCE_DATA_DIR  // set by CMakeLists.txt for the trainer's library
    if (Exists(GLIMPSE_SOURCE_DATA_DIR)) return GLIMPSE_SOURCE_DATA_DIR;
#endif
    return "data/mnist";
  }
  if (dataset == "fashion") return "/usr/share/datasets/fashion-mnist";
  Fail("unknown dataset '", dataset, "': expected mnist or fashion");
}

std::string DataFingerprint(const DigitDataset& d) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a, 64 bits
  const auto add = [&h](const std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  for (const IdxImages* im : {&d.train_images, &d.test_images}) add(im->pixels.data(), im->pixels.size());
  for (const IdxLabels* l : {&d.train_labels, &d.test_labels}) add(l->labels.data(), l->labels.size());
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return std::string("fnv1a64:") + hex;
}

}  // namespace glimpse
