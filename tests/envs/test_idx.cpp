#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "envs/dataset.h"
#include "envs/idx.h"
#include "src/core/error.h"
#include "tests/cli/cli_helpers.h"

using namespace glimpse;
using glimpse::test::TempDir;

namespace {

std::string TempPath(const std::string& name) { return TempDir() + "/" + name; }

IdxImages SmallImages(int count) {
  IdxImages im;
  im.count = count;
  im.rows = 4;
  im.cols = 3;
  for (int i = 0; i < count * 12; ++i) im.pixels.push_back(static_cast<std::uint8_t>(i * 7));
  return im;
}

void WriteBytes(const std::string& path, const std::vector<std::uint8_t>& b) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), b.size());
}

std::vector<std::uint8_t> ReadBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

void Gzip(const std::string& from, const std::string& to, std::size_t keep_bytes = SIZE_MAX) {
  const auto raw = ReadBytes(from);
  gzFile g = gzopen(to.c_str(), "wb");
  gzwrite(g, raw.data(), static_cast<unsigned>(raw.size()));
  gzclose(g);
  if (keep_bytes != SIZE_MAX) {
    auto z = ReadBytes(to);
    z.resize(keep_bytes);
    WriteBytes(to, z);
  }
}

}  // namespace

TEST_CASE("IDX images and labels round-trip, plain and gzipped", "[envs][idx]") {
  const auto im = SmallImages(5);
  const std::string p = TempPath("images.idx");
  WriteIdxImages(p, im);
  const auto back = ReadIdxImages(p);
  CHECK(back.count == 5);
  CHECK(back.rows == 4);
  CHECK(back.cols == 3);
  CHECK(back.pixels == im.pixels);
  CHECK(back.image(2)[1] == im.pixels[25]);
  Gzip(p, p + ".gz");
  CHECK(ReadIdxImages(p + ".gz").pixels == im.pixels);

  IdxLabels lb;
  lb.labels = {3, 1, 4, 1, 5};
  WriteIdxLabels(TempPath("labels.idx"), lb);
  CHECK(ReadIdxLabels(TempPath("labels.idx")).labels == lb.labels);
}

TEST_CASE("IDX reader names the file and the defect", "[envs][idx]") {
  const std::string p = TempPath("bad.idx");
  WriteIdxImages(p, SmallImages(3));
  auto good = ReadBytes(p);

  SECTION("missing file") {
    CHECK_THROWS_WITH(ReadIdxImages(TempPath("nope.idx")),
                      Catch::Contains("nope.idx") && Catch::Contains("scripts/setup"));
  }
  SECTION("truncated data") {
    auto b = good;
    b.resize(b.size() - 5);
    WriteBytes(p, b);
    CHECK_THROWS_WITH(ReadIdxImages(p), Catch::Contains("bad.idx") && Catch::Contains("truncated"));
  }
  SECTION("truncated header") {
    auto b = good;
    b.resize(9);
    WriteBytes(p, b);
    CHECK_THROWS_WITH(ReadIdxImages(p), Catch::Contains("truncated inside its header"));
  }
  SECTION("foreign file") {
    WriteBytes(p, {'P', 'K', 3, 4, 0, 0, 0, 0});
    CHECK_THROWS_WITH(ReadIdxImages(p), Catch::Contains("not an unsigned-byte IDX file"));
  }
  SECTION("labels file given as images") {
    IdxLabels lb;
    lb.labels = {1, 2};
    WriteIdxLabels(p, lb);
    CHECK_THROWS_WITH(ReadIdxImages(p), Catch::Contains("1 dimensions, expected 3"));
  }
  SECTION("trailing bytes") {
    auto b = good;
    b.push_back(0);
    WriteBytes(p, b);
    CHECK_THROWS_WITH(ReadIdxImages(p), Catch::Contains("1 unexpected bytes"));
  }
  SECTION("truncated gzip stream") {
    Gzip(p, p + ".gz", 20);
    CHECK_THROWS_WITH(ReadIdxImages(p + ".gz"), Catch::Contains("bad.idx.gz"));
  }
}

TEST_CASE("LoadDigitDataset cross-checks its four files", "[envs][idx]") {
  const std::string dir = TempPath("ds");
  std::system(("mkdir -p " + dir).c_str());
  WriteIdxImages(dir + "/train-images-idx3-ubyte", SmallImages(4));
  WriteIdxImages(dir + "/t10k-images-idx3-ubyte", SmallImages(2));
  IdxLabels tr, te;
  tr.labels = {0, 1, 2, 3};
  te.labels = {9, 8};
  WriteIdxLabels(dir + "/train-labels-idx1-ubyte", tr);
  WriteIdxLabels(dir + "/t10k-labels-idx1-ubyte", te);
  const auto d = LoadDigitDataset(dir);
  CHECK(d.train_images.count == 4);
  CHECK(d.test_labels.labels[1] == 8);

  te.labels = {9, 8, 7};
  WriteIdxLabels(dir + "/t10k-labels-idx1-ubyte", te);
  CHECK_THROWS_WITH(LoadDigitDataset(dir), Catch::Contains("holds 2 images but"));
  te.labels = {9, 12};
  WriteIdxLabels(dir + "/t10k-labels-idx1-ubyte", te);
  CHECK_THROWS_WITH(LoadDigitDataset(dir), Catch::Contains("label 12"));
  CHECK_THROWS_WITH(LoadDigitDataset(dir + "/absent"), Catch::Contains("does not exist"));
}
