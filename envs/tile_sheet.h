// A picture of task samples (glimpse render): tiles of H x W pixels in a grid as square as the
// tiles' shape allows, with a 2-pixel grey (96) border; query tasks (strip5) get a white bar under
// each tile marking the answer's box; with labels, a strip under each tile names its answer in
// white 3 x 5 digits ("7"; pairs100 "42", the two digits left to right; strip5 "query:answer").
// The whole sheet is then enlarged scale times (each pixel a scale x scale block).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "envs/task.h"

namespace glimpse {

struct TileSheet {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // (height, width) row-major, 0 = black
};

// images: count = info.size() samples of (tile_h, tile_w) floats in [0, 1]; scale in [1, 16].
TileSheet MakeTileSheet(const std::vector<float>& images, const std::vector<SampleInfo>& info, int tile_h, int tile_w,
                        bool labels, int scale);

// What a tile's label strip says: "LABEL", or "QUERY:LABEL" for a query task.
std::string TileLabel(const SampleInfo& s);

// Draws text (digits and ':') at (x, y), the top left of its first 3 x 5 glyph, one blank column
// between glyphs, in value; pixels (height, width) row-major; what falls outside is clipped.
void DrawDigits(std::vector<std::uint8_t>& pixels, int width, int height, int x, int y, const std::string& text,
                std::uint8_t value);

constexpr int kGlyphW = 3, kGlyphH = 5, kLabelStrip = kGlyphH + 2;  // the strip: a blank row above and below

}  // namespace glimpse
