#include "envs/idx.h"

#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "src/core/error.h"

namespace glimpse {
namespace {

// Reads a whole (possibly gzipped) file into memory.
std::vector<std::uint8_t> ReadAll(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr)
    Fail("cannot open '", path, "': ", std::strerror(errno),
         ". Run scripts/setup to fetch MNIST, or point --data-dir at a folder with the IDX files.");
  std::vector<std::uint8_t> out;
  std::uint8_t buf[1 << 16];
  for (;;) {
    const int n = gzread(f, buf, sizeof(buf));
    if (n < 0) {
      int code = 0;
      const std::string msg = gzerror(f, &code);
      gzclose(f);
      Fail("'", path, "' is corrupt (gzip: ", msg, ")");
    }
    if (n == 0) break;
    out.insert(out.end(), buf, buf + n);
  }
  // A truncated gzip stream reads as a short file without error; gzclose reports it.
  const int rc = gzclose(f);
  if (rc != Z_OK && rc != Z_BUF_ERROR) Fail("'", path, "' is corrupt (gzip close code ", rc, ")");
  if (rc == Z_BUF_ERROR) Fail("'", path, "' is truncated (the gzip stream ends early)");
  return out;
}

std::uint32_t BigEndian32(const std::uint8_t* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
}

// Parses the header; returns the sizes and checks the payload length exactly.
std::vector<std::uint32_t> ParseHeader(const std::string& path, const std::vector<std::uint8_t>& d, int expected_dims) {
  Check(d.size() >= 4, "'", path, "' is not an IDX file: ", d.size(), " bytes, shorter than a header");
  if (d[0] != 0 || d[1] != 0 || d[2] != 0x08)
    Fail("'", path, "' is not an unsigned-byte IDX file: magic bytes ", int(d[0]), " ", int(d[1]), " ", int(d[2]),
         ", expected 0 0 8");
  const int dims = d[3];
  if (dims != expected_dims)
    Fail("'", path, "' has ", dims, " dimensions, expected ", expected_dims,
         expected_dims == 3 ? " (an images file)" : " (a labels file)");
  const std::size_t header = 4 + 4 * static_cast<std::size_t>(dims);
  Check(d.size() >= header, "'", path, "' is truncated inside its header");
  std::vector<std::uint32_t> sizes;
  std::size_t payload = 1;
  for (int i = 0; i < dims; ++i) {
    sizes.push_back(BigEndian32(d.data() + 4 + 4 * i));
    if (__builtin_mul_overflow(payload, static_cast<std::size_t>(sizes.back()), &payload))
      Fail("'", path, "' declares sizes whose product overflows: not a valid IDX file");
  }
  const std::size_t available = d.size() - header;
  if (available < payload)
    Fail("'", path, "' is truncated: the header promises ", payload, " bytes of data, found ", available);
  if (available > payload) Fail("'", path, "' has ", available - payload, " unexpected bytes after its data");
  return sizes;
}

// Writes to a temporary name and renames, so a reader never sees half a file.
void WriteAll(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    Check(static_cast<bool>(f), "cannot write '", tmp, "'");
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    Check(static_cast<bool>(f), "write failed for '", tmp, "'");
  }
  Check(std::rename(tmp.c_str(), path.c_str()) == 0, "cannot rename '", tmp, "' to '", path, "'");
}

void PutBigEndian32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}

}  // namespace

IdxImages ParseIdxImages(const std::vector<std::uint8_t>& d, const std::string& path) {
  const auto sizes = ParseHeader(path, d, 3);
  IdxImages im;
  im.path = path;
  Check(sizes[0] <= 0x7fffffffu && sizes[1] <= 0xffffu && sizes[2] <= 0xffffu, "'", path,
        "' declares implausible sizes ", sizes[0], " x ", sizes[1], " x ", sizes[2]);
  im.count = static_cast<int>(sizes[0]);
  im.rows = static_cast<int>(sizes[1]);
  im.cols = static_cast<int>(sizes[2]);
  Check(im.rows > 0 && im.cols > 0, "'", path, "' has empty images (", im.rows, " x ", im.cols, ")");
  im.pixels.assign(d.begin() + 16, d.end());
  return im;
}

IdxLabels ParseIdxLabels(const std::vector<std::uint8_t>& d, const std::string& path) {
  ParseHeader(path, d, 1);
  IdxLabels lb;
  lb.path = path;
  lb.labels.assign(d.begin() + 8, d.end());
  return lb;
}

IdxImages ReadIdxImages(const std::string& path) { return ParseIdxImages(ReadAll(path), path); }
IdxLabels ReadIdxLabels(const std::string& path) { return ParseIdxLabels(ReadAll(path), path); }

void WriteIdxImages(const std::string& path, const IdxImages& im) {
  std::vector<std::uint8_t> out = {0, 0, 8, 3};
  PutBigEndian32(out, im.count);
  PutBigEndian32(out, im.rows);
  PutBigEndian32(out, im.cols);
  out.insert(out.end(), im.pixels.begin(), im.pixels.end());
  WriteAll(path, out);
}

void WriteIdxLabels(const std::string& path, const IdxLabels& lb) {
  std::vector<std::uint8_t> out = {0, 0, 8, 1};
  PutBigEndian32(out, static_cast<std::uint32_t>(lb.labels.size()));
  out.insert(out.end(), lb.labels.begin(), lb.labels.end());
  WriteAll(path, out);
}

}  // namespace glimpse
