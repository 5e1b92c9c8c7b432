// Each layer that protects a run file refuses damage on its own, with an Error naming the file
// (issue 25): the whole-file CRC-32 at its end, HDF5's metadata checksums (1.10 format), the
// Fletcher-32 checksum of each dataset's data, and the digest of the checkpoint's parameters. The
// inner layers are reached by damaging a file and then writing a valid whole-file checksum for it.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "src/core/error.h"
#include "src/store/checkpoint.h"
#include "src/store/run_file.h"
#include "src/train/verify.h"
#include "tests/cli/cli_helpers.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

constexpr float kMark = 1234.5f;  // the parameters' value, easy to find among the file's bytes

std::string Bytes(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
void Write(const std::string& p, const std::string& b) { std::ofstream(p, std::ios::binary) << b; }

// A committed run file holding a checkpoint of 64 parameters, all kMark.
std::string MakeRun(const std::string& name) {
  const std::string p = TempDir() + "/glimpse_integrity_" + name + ".h5";
  std::remove(p.c_str());
  RunFile f(p, RunFile::Mode::kCreate);
  f.SetAttribute("/", "glimpse_version", "test");
  Checkpoint c;
  c.params.assign(64, kMark);
  c.table.push_back({"w", {64}, 0, 64});
  SaveCheckpoint(f, c);
  f.Commit();
  return p;
}

// Replaces the file's whole-file checksum by one that matches its (damaged) bytes.
void Reseal(const std::string& p) {
  std::string b = Bytes(p);
  constexpr std::size_t kTrailer = 25;
  REQUIRE(b.size() > kTrailer);
  REQUIRE(b.compare(b.size() - kTrailer, 16, "\n#glimpse crc32 ") == 0);
  b.resize(b.size() - kTrailer);
  char t[32];
  std::snprintf(t, sizeof(t), "\n#glimpse crc32 %08lx\n",
                crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(b.data()), static_cast<uInt>(b.size())));
  Write(p, b + t);
}

std::string Refusal(const std::string& p) {
  try {
    const RunFile f(p, RunFile::Mode::kReadOnly);
    LoadCheckpoint(f);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("A whole and checksummed run file verifies and loads", "[train][runfile][integrity]") {
  const std::string p = MakeRun("whole");
  CHECK(Refusal(p).empty());
  CHECK(VerifyRun(p).empty());
}

TEST_CASE("Each layer of protection refuses damage on its own, naming the file", "[train][runfile][integrity]") {
  SECTION("the whole-file checksum: any byte") {
    const std::string p = MakeRun("crc");
    std::string b = Bytes(p);
    b[b.size() / 3] ^= 0x10;
    Write(p, b);
    CHECK_THAT(Refusal(p), Catch::Contains(p) && Catch::Contains("is damaged: its bytes have CRC-32"));
    CHECK(!VerifyRun(p).empty());
  }
  SECTION("a checksummed-format file whose own checksum is gone") {
    const std::string p = MakeRun("cut");
    const std::string b = Bytes(p);
    Write(p, b.substr(0, b.size() - 25));
    CHECK_THAT(Refusal(p), Catch::Contains(p) && Catch::Contains("lacks the checksum"));
  }
  SECTION("HDF5's metadata checksum: the superblock") {
    const std::string p = MakeRun("superblock");
    std::string b = Bytes(p);
    b[20] ^= 0x01;  // inside the version 3 superblock (its checksum covers bytes 0..43)
    Write(p, b);
    Reseal(p);
    CHECK_THAT(Refusal(p), Catch::Contains(p) && Catch::Contains("damaged"));
  }
  SECTION("Fletcher-32 of the data, and the parameters' digest behind it") {
    const std::string p = MakeRun("data");
    std::string b = Bytes(p);
    const std::string mark(reinterpret_cast<const char*>(&kMark), sizeof(kMark));
    const auto at = b.find(mark + mark + mark + mark);
    REQUIRE(at != std::string::npos);
    b[at + 5] ^= 0x04;  // a bit of the second parameter
    Write(p, b);
    Reseal(p);
    const std::string why = Refusal(p);
    INFO(why);
    CHECK_THAT(why, Catch::Contains(p) && Catch::Contains("HDF5 error in ReadArray"));  // Fletcher-32, first
  }
  SECTION("the best checkpoint's digest too") {
    const std::string p = MakeRun("best");
    {
      RunFile f(p, RunFile::Mode::kReadWrite);
      Checkpoint c = LoadCheckpoint(f);
      SaveBestCheckpoint(f, c, 0.5);
      std::vector<float> other(64, 0.0f);
      f.WriteArray<float>(std::string(kBestGroup) + "/params", {64}, other.data());
    }
    const RunFile f(p, RunFile::Mode::kReadOnly);
    CHECK_THROWS_WITH(LoadBestCheckpoint(f), Catch::Contains(p) && Catch::Contains("digest"));
    bool named = false;
    for (const auto& line : VerifyRun(p)) named = named || line.find("/best") != std::string::npos;
    CHECK(named);
  }
  SECTION("the parameters' digest, when the data was rewritten without it") {
    const std::string p = MakeRun("digest");
    {
      RunFile f(p, RunFile::Mode::kReadWrite);
      std::vector<float> other(64, kMark);
      other[7] = 0.0f;
      f.WriteArray<float>(CheckpointGroup(f) + "/params", {64}, other.data());  // checksums stay consistent
    }
    CHECK_THAT(Refusal(p), Catch::Contains(p) && Catch::Contains("params") && Catch::Contains("digest"));
    bool named = false;
    for (const auto& line : VerifyRun(p)) named = named || line.find("digest") != std::string::npos;
    CHECK(named);
  }
}

TEST_CASE("verify finds series of unequal lengths and a checkpoint beyond its series", "[train][runfile][integrity]") {
  const std::string p = MakeRun("series");
  {
    RunFile f(p, RunFile::Mode::kReadWrite);
    for (int i = 0; i < 4; ++i) f.Append("/train", {{"step", double(i)}, {"loss", 1.0}});
    Checkpoint c = LoadCheckpoint(f);
    c.lengths["/train"] = 4;
    SaveCheckpoint(f, c);
  }
  CHECK(VerifyRun(p).empty());
  {
    RunFile f(p, RunFile::Mode::kReadWrite);
    f.TruncateBlocks<double>("/train/loss", 3);  // one series of the group cut short
  }
  auto found = [&](const std::string& what) {
    for (const auto& line : VerifyRun(p))
      if (line.find(what) != std::string::npos) return true;
    return false;
  };
  CHECK(found("'/train': 'step' has 4 rows, 'loss' 3"));
  {
    RunFile f(p, RunFile::Mode::kReadWrite);
    f.TruncateSeries("/train", 2);  // now the checkpoint counts rows the file no longer holds
  }
  CHECK(found("the checkpoint counts 4 rows of '/train', the file holds 2"));
}
