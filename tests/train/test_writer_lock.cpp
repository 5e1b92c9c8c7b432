#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "src/core/error.h"
#include "src/store/run_file.h"
#include "src/store/writer_lock.h"
#include "tests/cli/cli_helpers.h"

using namespace glimpse;
namespace fs = std::filesystem;

namespace {

std::string Fresh(const std::string& name) {
  const std::string dir = test::TempDir() + "/writer_lock_" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string Read(const std::string& p) {
  std::ifstream f(p);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("One writer lock per real file, whatever spelling of its path", "[train][lock]") {
  const std::string dir = Fresh("spellings");
  std::ofstream(dir + "/a.h5") << "x";
  fs::create_symlink("a.h5", dir + "/link.h5");
  fs::create_directories(dir + "/sub");
  const WriterLock held(dir + "/a.h5");
  CHECK(held.real() == fs::canonical(dir + "/a.h5").string());
  for (const std::string& other : {dir + "/link.h5", dir + "/./a.h5", dir + "/sub/../a.h5"})
    CHECK_THROWS_WITH(WriterLock(other), Catch::Contains("being written by another glimpse process"));
  CHECK_NOTHROW(WriterLock(dir + "/b.h5"));  // another file
}

TEST_CASE("A waiting writer gets the lock once the holder lets go, and never a removed lock file", "[train][lock]") {
  const std::string dir = Fresh("wait");
  auto holder = std::make_unique<WriterLock>(dir + "/r.h5");
  auto waiter = std::async(std::launch::async, [&] { return WriterLock(dir + "/r.h5", 10).real(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(waiter.wait_for(std::chrono::milliseconds(0)) == std::future_status::timeout);
  holder.reset();  // removes r.h5.lock while still holding it, then lets go
  CHECK(waiter.get() == fs::canonical(dir).string() + "/r.h5");
  CHECK_THROWS_WITH(WriterLock(dir + "/missing/r.h5"), Catch::Contains("cannot write next to"));
}

TEST_CASE("Private files are new, never a planted link, and readable as any new file", "[train][lock]") {
  const std::string dir = Fresh("private");
  std::ofstream(dir + "/victim") << "precious";
  fs::create_symlink("victim", dir + "/run.h5.lock");
  CHECK_THROWS_WITH(WriterLock(dir + "/run.h5"), Catch::Contains("is a symbolic link"));
  const std::string a = PrivateFile(dir + "/run.h5.work"), b = PrivateFile(dir + "/run.h5.work");
  CHECK(a != b);
  CHECK(a.rfind(dir + "/run.h5.work-", 0) == 0);
  struct stat st;
  REQUIRE(::stat(a.c_str(), &st) == 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  CHECK((st.st_mode & 0777) == (0666 & ~mask));
  CopyBytes(dir + "/victim", a);
  CHECK(Read(a) == "precious");
  fs::remove(dir + "/run.h5.lock");
  const WriterLock lock(dir + "/run.h5");
  lock.RemoveStale(".work");  // what killed writers left
  CHECK(!fs::exists(a));
  CHECK(!fs::exists(b));
  CHECK(Read(dir + "/victim") == "precious");
}

TEST_CASE("A run file written through a link replaces the real file and leaves the link", "[train][lock]") {
  const std::string dir = Fresh("through_link");
  {
    RunFile f(dir + "/real.h5", RunFile::Mode::kCreate);
    f.SetAttribute("/", "glimpse_version", "test");
    f.Commit();
  }
  fs::create_symlink("real.h5", dir + "/link.h5");
  {
    RunFile f(dir + "/link.h5", RunFile::Mode::kReadWrite);
    f.SetAttribute("/", "note", "through the link");
    f.Commit();
    CHECK_THROWS_WITH(RunFile(dir + "/real.h5", RunFile::Mode::kReadWrite), Catch::Contains("being written"));
  }
  CHECK(fs::is_symlink(dir + "/link.h5"));
  CHECK(RunFile(dir + "/real.h5", RunFile::Mode::kReadOnly).Attributes("/").at("note") == "through the link");
  for (const auto& e : fs::directory_iterator(dir))  // no working copy or lock left behind
    CHECK((e.path().filename() == "real.h5" || e.path().filename() == "link.h5"));
}
