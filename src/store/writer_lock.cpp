#include "src/store/writer_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include "src/core/error.h"

namespace glimpse {

std::string RealPath(const std::string& path) {
  std::error_code ec;
  const auto real = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
  return ec ? path : real.string();
}

WriterLock::WriterLock(const std::string& path, double wait_s) : real_(RealPath(path)) {
  const std::string lock = real_ + ".lock";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  for (;;) {
    fd_ = ::open(lock.c_str(), O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0644);
    Check(fd_ >= 0, "cannot write next to '", path, "': ", std::strerror(errno), " (",
          errno == ELOOP ? "'" + lock + "' is a symbolic link" : std::string("is the folder missing or read-only?"),
          ")");
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
      struct stat held, now;  // the file we locked must still be REAL.lock (a releasing writer removes it)
      if (::fstat(fd_, &held) == 0 && ::lstat(lock.c_str(), &now) == 0 && held.st_ino == now.st_ino &&
          held.st_dev == now.st_dev)
        return;
    }
    ::close(fd_);
    fd_ = -1;
    if (std::chrono::steady_clock::now() >= deadline)
      Fail("'", path, "' is being written by another glimpse process",
           wait_s > 0 ? Format(" (waited ", wait_s, " s)") : std::string());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

WriterLock::~WriterLock() {
  if (fd_ < 0) return;
  std::remove((real_ + ".lock").c_str());  // while still held: a waiter re-checks the name (above)
  ::close(fd_);
}

void WriterLock::RemoveStale(const std::string& suffix) const {
  const std::filesystem::path real(real_);
  const std::string stem = real.filename().string() + suffix + "-";
  std::error_code ec;
  std::vector<std::filesystem::path> stale;
  for (const auto& e : std::filesystem::directory_iterator(real.parent_path(), ec))
    if (e.path().filename().string().rfind(stem, 0) == 0 && e.is_regular_file(ec) && !e.is_symlink(ec))
      stale.push_back(e.path());
  for (const auto& p : stale) std::filesystem::remove(p, ec);
}

std::string PrivateFile(const std::string& prefix) {
  std::string name = prefix + "-XXXXXX";
  std::vector<char> buf(name.begin(), name.end());
  buf.push_back('\0');
  const int fd = ::mkostemp(buf.data(), O_CLOEXEC);  // O_CREAT | O_EXCL: never an existing name or link
  Check(fd >= 0, "cannot create a file next to '", prefix, "': ", std::strerror(errno),
        " (is the folder missing or read-only?)");
  const mode_t mask = ::umask(0);  // mkostemp makes 0600; a run file is as readable as any new file
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  ::close(fd);
  return std::string(buf.data());
}

void CopyBytes(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  Check(in >= 0, "cannot read '", from, "': ", std::strerror(errno));
  const int out = ::open(to.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
  if (out < 0) {
    const int e = errno;
    ::close(in);
    Fail("cannot write '", to, "': ", std::strerror(e));
  }
  std::vector<char> buf(1 << 20);
  int error = 0;
  for (;;) {
    const ssize_t n = ::read(in, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n < 0) error = errno;
      break;
    }
    for (ssize_t done = 0; done < n && !error;) {
      const ssize_t w = ::write(out, buf.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0)
        error = w < 0 ? errno : ENOSPC;
      else
        done += w;
    }
    if (error) break;
  }
  ::close(in);
  if (::close(out) != 0 && !error) error = errno;
  Check(error == 0, "cannot copy '", from, "' to '", to, "': ", std::strerror(error),
        " (disk full, or the folder read-only?)");
}

}  // namespace glimpse
