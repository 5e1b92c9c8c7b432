#include "src/store/file_checksum.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "src/core/error.h"

namespace glimpse {
namespace {

constexpr char kTrailerTag[] = "\n#glimpse crc32 ";
constexpr std::size_t kTagSize = sizeof(kTrailerTag) - 1, kTrailerSize = kTagSize + 8 + 1;

std::string ReadBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  Check(static_cast<bool>(f), "cannot read '", path, "': ", std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace

std::uint32_t Crc32(const void* data, std::size_t bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* p = static_cast<const Bytef*>(data);
  while (bytes > 0) {  // zlib takes at most 4 GiB a call
    const uInt n = static_cast<uInt>(std::min<std::size_t>(bytes, 1u << 30));
    crc = crc32(crc, p, n);
    p += n, bytes -= n;
  }
  return static_cast<std::uint32_t>(crc);
}

namespace {
// "\n#glimpse crc32 XXXXXXXX\n" for `bytes`.
std::string Trailer(const std::string& bytes) {
  char trailer[kTrailerSize + 1];
  std::snprintf(trailer, sizeof(trailer), "%s%08x\n", kTrailerTag, Crc32(bytes.data(), bytes.size()));
  return std::string(trailer, kTrailerSize);
}
}  // namespace

void AppendFileChecksum(const std::string& path) {
  const std::string trailer = Trailer(ReadBytes(path));
  std::ofstream f(path, std::ios::binary | std::ios::app);
  f.write(trailer.data(), static_cast<std::streamsize>(trailer.size()));
  Check(static_cast<bool>(f.flush()), "cannot write '", path, "': ", std::strerror(errno), " (disk full?)");
}

void ResealFileChecksum(const std::string& path) {
  std::string bytes = ReadBytes(path);
  if (bytes.size() >= kTrailerSize && bytes.compare(bytes.size() - kTrailerSize, kTagSize, kTrailerTag) == 0)
    bytes.resize(bytes.size() - kTrailerSize);
  bytes += Trailer(bytes);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  Check(static_cast<bool>(f.flush()), "cannot write '", path, "': ", std::strerror(errno), " (disk full?)");
}

bool CheckFileChecksum(const std::string& path, bool required) {
  const std::string bytes = ReadBytes(path);
  static const char kSignature[] = "\x89HDF\r\n\x1a\n";
  Check(bytes.size() > 8 && bytes.compare(0, 8, kSignature, 8) == 0, "'", path,
        "' is not an HDF5 file (is it a glimpse run file?)");
  const bool checksummed_format = static_cast<unsigned char>(bytes[8]) >= 2;
  const bool has = bytes.size() >= kTrailerSize &&
                   bytes.compare(bytes.size() - kTrailerSize, kTagSize, kTrailerTag) == 0 && bytes.back() == '\n';
  if (!has) {
    Check(!checksummed_format, "'", path, "' is damaged: it lacks the checksum glimpse writes at the end of ",
          "every run file (edited with h5py? glimpse.runs.reseal(path) appends a new one)");
    Check(!required, "'", path, "' has no checksums (written by an older glimpse); glimpse slim ",
          "rewrites it with them");
    return false;
  }
  const std::size_t at = bytes.size() - kTrailerSize;
  const std::string hex = bytes.substr(at + kTagSize, 8);
  char* end = nullptr;
  const unsigned long stored = std::strtoul(hex.c_str(), &end, 16);
  const std::uint32_t now = Crc32(bytes.data(), at);
  Check(end == hex.c_str() + 8 && stored == now, "'", path, "' is damaged: its bytes have CRC-32 ",
        Format(std::hex, now), ", but glimpse stored ", hex, " at its end when it wrote it");
  return true;
}

}  // namespace glimpse
