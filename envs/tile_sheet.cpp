#include "envs/tile_sheet.h"

#include <algorithm>
#include <cmath>

#include "src/core/error.h"

namespace glimpse {
namespace {

// 3 x 5 glyphs, one row of 3 bits per entry, the top row first (bit 2: the left column).
constexpr std::uint8_t kDigits[10][kGlyphH] = {{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7},
                                               {5, 5, 7, 1, 1}, {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 2, 2, 2},
                                               {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
constexpr std::uint8_t kColon[kGlyphH] = {0, 2, 0, 2, 0};

}  // namespace

std::string TileLabel(const SampleInfo& s) {
  return (s.query >= 0 ? std::to_string(s.query) + ":" : std::string()) + std::to_string(s.label);
}

void DrawDigits(std::vector<std::uint8_t>& pixels, int width, int height, int x, int y, const std::string& text,
                std::uint8_t value) {
  for (char c : text) {
    Check((c >= '0' && c <= '9') || c == ':', "DrawDigits: cannot draw '", c, "'");
    const std::uint8_t* glyph = c == ':' ? kColon : kDigits[c - '0'];
    for (int gy = 0; gy < kGlyphH; ++gy)
      for (int gx = 0; gx < kGlyphW; ++gx) {
        const int px = x + gx, py = y + gy;
        if ((glyph[gy] >> (kGlyphW - 1 - gx) & 1) && px >= 0 && px < width && py >= 0 && py < height)
          pixels[static_cast<std::size_t>(py) * width + px] = value;
      }
    x += kGlyphW + 1;
  }
}

TileSheet MakeTileSheet(const std::vector<float>& images, const std::vector<SampleInfo>& info, int tile_h, int tile_w,
                        bool labels, int scale) {
  const int count = static_cast<int>(info.size()), pad = 2;
  CheckRange(scale, 1, 16, "option --scale");
  Check(count > 0 && images.size() == static_cast<std::size_t>(count) * tile_h * tile_w,
        "MakeTileSheet: ", images.size(), " pixels for ", count, " tiles of ", tile_h, " x ", tile_w);
  const bool query = info[0].query >= 0;
  const int bar = query ? 3 : 0, strip = labels ? kLabelStrip : 0, th = tile_h + bar + strip;
  const int cols = std::max(1, static_cast<int>(std::lround(std::sqrt(count * static_cast<double>(th) / tile_w))));
  const int rows = (count + cols - 1) / cols;
  const int w = cols * (tile_w + pad) + pad, h = rows * (th + pad) + pad;
  std::vector<std::uint8_t> base(static_cast<std::size_t>(w) * h, 96);
  for (int i = 0; i < count; ++i) {
    const SampleInfo& s = info[i];
    const float* img = images.data() + static_cast<std::size_t>(i) * tile_h * tile_w;
    const int ox = pad + (i % cols) * (tile_w + pad), oy = pad + (i / cols) * (th + pad);
    for (int y = 0; y < th; ++y)
      for (int x = 0; x < tile_w; ++x) {
        std::uint8_t v = 0;
        if (y < tile_h)
          v = static_cast<std::uint8_t>(std::lround(img[y * tile_w + x] * 255.0f));
        else if (y > tile_h && y < tile_h + bar && x >= s.box.x0 && x < s.box.x1)
          v = 255;  // the answer's box
        base[static_cast<std::size_t>(oy + y) * w + ox + x] = v;
      }
    if (labels) {  // clipped to the tile: the strip is the tile's width
      std::vector<std::uint8_t> text(static_cast<std::size_t>(tile_w) * kGlyphH, 0);
      DrawDigits(text, tile_w, kGlyphH, 1, 0, TileLabel(s), 255);
      for (int y = 0; y < kGlyphH; ++y)
        std::copy_n(text.begin() + static_cast<std::ptrdiff_t>(y) * tile_w, tile_w,
                    base.begin() + static_cast<std::ptrdiff_t>(oy + tile_h + bar + 1 + y) * w + ox);
    }
  }
  TileSheet sheet{w * scale, h * scale, {}};
  sheet.pixels.resize(static_cast<std::size_t>(sheet.width) * sheet.height);
  for (int y = 0; y < sheet.height; ++y)
    for (int x = 0; x < sheet.width; ++x)
      sheet.pixels[static_cast<std::size_t>(y) * sheet.width + x] =
          base[static_cast<std::size_t>(y / scale) * w + x / scale];
  return sheet;
}

}  // namespace glimpse
