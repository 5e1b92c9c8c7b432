#include "envs/png.h"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/core/error.h"

namespace glimpse {

void WritePngGray(const std::string& path, int width, int height, const std::vector<std::uint8_t>& pixels) {
  CheckEq(pixels.size(), static_cast<std::size_t>(width) * height, "PNG pixel count");
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) Fail("cannot write '", path, "': ", std::strerror(errno));
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (png == nullptr || info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(f);
    Fail("libpng failed while writing '", path, "'");
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, const_cast<png_bytep>(pixels.data() + static_cast<std::size_t>(y) * width));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::fclose(f) != 0) Fail("cannot finish writing '", path, "': ", std::strerror(errno));
}

}  // namespace glimpse
