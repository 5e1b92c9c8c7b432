// Reader for the IDX files of MNIST and Fashion-MNIST (LeCun et al.): big-endian header
// [0, 0, type=0x08 (unsigned byte), ndims] then ndims 32-bit sizes, then the bytes.
// Plain and gzip-compressed files are both read (zlib reads plain files through). Every defect
// (missing, truncated, foreign, trailing bytes) throws Error naming the file and what is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace glimpse {

struct IdxImages {
  std::string path;
  int count = 0, rows = 0, cols = 0;
  std::vector<std::uint8_t> pixels;  // (count, rows, cols), 0..255
  const std::uint8_t* image(int i) const { return pixels.data() + static_cast<std::size_t>(i) * rows * cols; }
};

struct IdxLabels {
  std::string path;
  std::vector<std::uint8_t> labels;  // (count)
};

IdxImages ReadIdxImages(const std::string& path);
IdxLabels ReadIdxLabels(const std::string& path);

// The same checks on bytes already in memory; `name` is used in error messages.
IdxImages ParseIdxImages(const std::vector<std::uint8_t>& bytes, const std::string& name);
IdxLabels ParseIdxLabels(const std::vector<std::uint8_t>& bytes, const std::string& name);

// Writes an uncompressed IDX file (tests, and users converting their own data).
void WriteIdxImages(const std::string& path, const IdxImages& images);
void WriteIdxLabels(const std::string& path, const IdxLabels& labels);

}  // namespace glimpse
