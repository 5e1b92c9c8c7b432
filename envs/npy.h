// NumPy's .npy format (version 1.0) for float32 arrays: what `glimpse render --out FILE.npy` writes,
// so a task's exact samples can be read by numpy.load, byte for byte as the trainer renders them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace glimpse {

// Writes data (row-major, shape `shape`, little-endian float32) to path; Error if it cannot.
void WriteNpyFloat32(const std::string& path, const std::vector<std::size_t>& shape, const float* data);

}  // namespace glimpse
