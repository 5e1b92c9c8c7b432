#include "envs/npy.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "src/core/error.h"

namespace glimpse {

void WriteNpyFloat32(const std::string& path, const std::vector<std::size_t>& shape, const float* data) {
  static_assert(sizeof(float) == 4, "float32 expected");
  const std::uint16_t probe = 1;
  Check(*reinterpret_cast<const unsigned char*>(&probe) == 1, "WriteNpyFloat32: a little-endian machine expected");
  // Header: a Python dict literal, padded with spaces and ended by '\n' so that magic (6) + version
  // (2) + length (2) + header is a multiple of 64 bytes.
  std::string dims;
  std::size_t count = 1;
  for (std::size_t d : shape) dims += std::to_string(d) + ", ", count *= d;
  if (shape.size() > 1) dims.erase(dims.size() - 1);  // (3,) for one axis, (3, 4) for more
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  Check(static_cast<bool>(out), "cannot write '", path, "': ", std::strerror(errno));
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const std::uint16_t len = static_cast<std::uint16_t>(header.size());
  out.write(reinterpret_cast<const char*>(magic), 8);
  out.put(static_cast<char>(len & 0xff)).put(static_cast<char>(len >> 8));
  out << header;
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(count * sizeof(float)));
  Check(static_cast<bool>(out.flush()), "cannot write '", path, "': ", std::strerror(errno));
}

}  // namespace glimpse
