// One writer per real file, and private temporary files next to it.
//
// WriterLock(path) resolves every symbolic link in path (the file itself and its folders) to the
// real file REAL, then holds flock on REAL.lock, so two spellings of one file (a link, "./a.h5",
// "dir/../a.h5") share one lock. The lock file is opened without following a link and, once locked,
// checked to still be the file at REAL.lock (a releasing writer removes it), so waiting writers never
// hold a lock on a removed file. Taken before anything is written; released by the destructor.
//
// PrivateFile(prefix) creates a new file PREFIX-XXXXXX exclusively (O_CREAT | O_EXCL, never through a
// link planted at that name), for the working copies and temporary outputs that a final rename makes
// the real file.
#pragma once

#include <string>

namespace glimpse {

class WriterLock {
 public:
  // Error naming the file when another process holds the lock after wait_s seconds (0: no wait),
  // or when the lock file cannot be made (folder missing or read-only).
  explicit WriterLock(const std::string& path, double wait_s = 0);
  ~WriterLock();
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

  // The locked file's path with every link resolved: where the final rename goes.
  const std::string& real() const { return real_; }
  // Removes REAL.SUFFIX-* files that a killed writer left (the lock is held, so none is in use).
  void RemoveStale(const std::string& suffix) const;

 private:
  std::string real_;
  int fd_ = -1;
};

// The path with every symbolic link resolved (the file need not exist; its folder is resolved).
std::string RealPath(const std::string& path);

// Creates a new, empty file PREFIX-XXXXXX exclusively, with the mode a new file gets (0666 less the
// umask), and returns its name; Error naming it otherwise.
std::string PrivateFile(const std::string& prefix);

// Copies the bytes of `from` into `to` (a file that PrivateFile made); Error on a short write.
void CopyBytes(const std::string& from, const std::string& to);

}  // namespace glimpse
