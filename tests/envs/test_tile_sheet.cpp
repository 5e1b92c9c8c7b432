// glimpse render's picture (envs/tile_sheet.h): the grid's layout, the tiles' pixels, the enlargement
// and the answers written under the tiles.
#include <catch2/catch.hpp>
#include <cmath>

#include "envs/tile_sheet.h"
#include "src/core/error.h"

using glimpse::DrawDigits;
using glimpse::MakeTileSheet;
using glimpse::SampleInfo;
using glimpse::TileLabel;

namespace {
// count tiles of `pixels` pixels each (4 x 6 by default), the j-th pixel of all of them (j % 11) / 10.
std::vector<float> Tiles(int count, int pixels = 24) {
  std::vector<float> v(static_cast<std::size_t>(count) * pixels);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k % 11) / 10.0f;
  return v;
}
std::vector<SampleInfo> Labels(std::initializer_list<int> labels) {
  std::vector<SampleInfo> info;
  for (int l : labels) info.push_back(SampleInfo{l});
  return info;
}
}  // namespace

TEST_CASE("a tile sheet lays the samples out in a grey-bordered grid", "[envs]") {
  const auto sheet = MakeTileSheet(Tiles(5), Labels({1, 2, 3, 4, 5}), 4, 6, false, 1);
  // 5 tiles of 4 x 6: round(sqrt(5 * 4 / 6)) = 2 columns, 3 rows, 2 pixels of border around each.
  REQUIRE(sheet.width == 2 * (6 + 2) + 2);
  REQUIRE(sheet.height == 3 * (4 + 2) + 2);
  CHECK(sheet.pixels[0] == 96);
  const auto tiles = Tiles(5);
  for (int i = 0; i < 5; ++i)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 6; ++x) {
        const int ox = 2 + (i % 2) * 8, oy = 2 + (i / 2) * 6;
        CHECK(sheet.pixels[(oy + y) * sheet.width + ox + x] == std::lround(tiles[i * 24 + y * 6 + x] * 255.0f));
      }
  CHECK(sheet.pixels[(2 + 12) * sheet.width + 10] == 96);  // the sixth cell is empty
}

TEST_CASE("a tile sheet enlarged by --scale turns every pixel into a block", "[envs]") {
  const auto one = MakeTileSheet(Tiles(3), Labels({7, 8, 9}), 4, 6, true, 1);
  const auto three = MakeTileSheet(Tiles(3), Labels({7, 8, 9}), 4, 6, true, 3);
  REQUIRE(three.width == 3 * one.width);
  REQUIRE(three.height == 3 * one.height);
  for (int y = 0; y < three.height; ++y)
    for (int x = 0; x < three.width; ++x)
      REQUIRE(three.pixels[y * three.width + x] == one.pixels[(y / 3) * one.width + x / 3]);
  CHECK_THROWS_AS(MakeTileSheet(Tiles(3), Labels({7, 8, 9}), 4, 6, true, 17), glimpse::Error);
}

TEST_CASE("a tile sheet with --labels writes each answer under its tile", "[envs]") {
  const auto plain = MakeTileSheet(Tiles(2, 48), Labels({1, 42}), 4, 12, false, 1);
  const auto sheet = MakeTileSheet(Tiles(2, 48), Labels({1, 42}), 4, 12, true, 1);
  // round(sqrt(2 * 11 / 12)) = 1 column: the tiles stacked, each 4 + 7 rows tall with its strip.
  REQUIRE(sheet.width == plain.width);
  REQUIRE(sheet.height == 2 * (4 + 7) + 3 * 2);
  // The glyph of "1" (rows 010 110 010 010 111) one pixel from the left of tile 0's strip, by hand.
  const int top = 2 + 4 + 1, left = 2 + 1;
  const char* one[5] = {".#.", "##.", ".#.", ".#.", "###"};
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 3; ++x) CHECK(sheet.pixels[(top + y) * sheet.width + left + x] == (one[y][x] == '#' ? 255 : 0));
  // Tile 1's strip says "42", drawn as DrawDigits draws it.
  std::vector<std::uint8_t> want(12 * 5, 0);
  DrawDigits(want, 12, 5, 1, 0, "42", 255);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 12; ++x) CHECK(sheet.pixels[(top + 11 + 2 + y) * sheet.width + 2 + x] == want[y * 12 + x]);
  CHECK(want[0 * 12 + 1] == 255);  // "4" starts with a lit top-left pixel (rows 101 101 111 001 001)
  CHECK(want[0 * 12 + 2] == 0);
}

TEST_CASE("a label names the answer, and for a query task the query too", "[envs]") {
  SampleInfo s;
  s.label = 7;
  CHECK(TileLabel(s) == "7");
  s.query = 3;
  CHECK(TileLabel(s) == "3:7");
  std::vector<std::uint8_t> px(20, 0);
  CHECK_THROWS_AS(DrawDigits(px, 4, 5, 0, 0, "a", 255), glimpse::Error);
  DrawDigits(px, 4, 5, 2, 0, "8", 255);  // clipped at the right edge: only the first two columns
  CHECK(px[2] == 255);
  CHECK(px[3] == 255);
}
