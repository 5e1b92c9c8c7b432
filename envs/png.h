// Writes 8-bit greyscale PNG files (libpng), for pictures of tasks and glimpses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace glimpse {

// pixels (height, width) row-major, 0 = black. Throws Error if the file cannot be written.
void WritePngGray(const std::string& path, int width, int height, const std::vector<std::uint8_t>& pixels);

}  // namespace glimpse
