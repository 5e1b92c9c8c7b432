// One HDF5 file per run (docs/run_file.md). This header hides HDF5: only RunFile's own .cpp
// files (run_file.cpp, run_file_integrity.cpp, through run_file_impl.h) include H5Cpp.h.
//
// Crash safety: HDF5 files can be left unreadable by a kill in the middle of a write, so a writer
// never writes the run file itself. It writes a private copy, REAL.work-XXXXXX (created exclusively,
// never through a link), and Commit() makes that copy the run file with one atomic rename; the next
// write starts from a new copy. Whatever moment a process dies at, the run file is the last committed,
// complete file; readers always see complete files. REAL is PATH with every link resolved, and
// REAL.lock (writer_lock.h) keeps a second writer out, whatever spelling of the path it uses.
//
// Series are 1-D, chunked, extendable datasets of doubles; every series of a group has the same
// length, and each Append adds one row to all of them. Arrays are written whole, or grown one block
// at a time along their first dimension.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace glimpse {

class RunFile {
 public:
  enum class Mode {
    kCreate,     // a new file (appears at the first Commit); Error if it exists
    kOverwrite,  // a new file, replacing any existing one at the first Commit (--force)
    kReadWrite,  // an existing glimpse run file (resume)
    kReadOnly,   // an existing glimpse run file (eval, tests)
  };
  // Opening an existing file checks, before HDF5 reads it, the CRC-32 of the whole file that every
  // commit appends after HDF5's end of file; then that it is HDF5 and a glimpse run. Error otherwise,
  // naming the file. A file of the earliest format without that checksum (an older glimpse) still
  // opens, unprotected, unless RequireChecksums(true) was called (the fuzz target does).
  // A writable mode takes the writer lock first, waiting up to wait_s seconds for another writer.
  RunFile(const std::string& path, Mode mode, double wait_s = 0);
  static void RequireChecksums(bool require);
  // Whether a file that HDF5 failed to close (a full disk) was left half-closed in this process. HDF5's
  // own clean-up at exit would close it again and crash, so the process must then end with _Exit
  // (src/cli/main.cpp); every run file on disk is whole either way.
  static bool AbandonedAny();
  ~RunFile();
  RunFile(const RunFile&) = delete;
  RunFile& operator=(const RunFile&) = delete;

  const std::string& path() const { return path_; }

  // String attributes of an object ("/" = the root).
  void SetAttribute(const std::string& object, const std::string& name, const std::string& value);
  std::map<std::string, std::string> Attributes(const std::string& object) const;
  void RemoveAttribute(const std::string& object, const std::string& name);  // no-op if absent

  // Series: group (e.g. "/train") of 1-D double datasets.
  void Append(const std::string& group, const std::vector<std::pair<std::string, double>>& row);
  std::size_t SeriesLength(const std::string& group) const;  // 0 if the group does not exist
  std::vector<double> ReadSeries(const std::string& group, const std::string& name) const;
  std::vector<std::string> SeriesNames(const std::string& group) const;
  void TruncateSeries(const std::string& group, std::size_t length);

  // Arrays of float, double, int32, int64, uint64. WriteArray overwrites in place when the dataset
  // exists with the same shape (no space is leaked), else (re)creates it.
  template <class T>
  void WriteArray(const std::string& path, const std::vector<std::size_t>& shape, const T* data);
  template <class T>
  std::vector<T> ReadArray(const std::string& path, std::vector<std::size_t>* shape = nullptr) const;
  // Appends data (block_shape) as the next entry along a first, unlimited dimension.
  template <class T>
  void AppendBlock(const std::string& path, const std::vector<std::size_t>& block_shape, const T* data);
  template <class T>
  void TruncateBlocks(const std::string& path, std::size_t length);
  // TruncateBlocks for every block dataset (first dimension unlimited) directly in group; the fixed
  // arrays beside them stay. No-op when the group does not exist.
  void TruncateGroupBlocks(const std::string& group, std::size_t length);

  // Reads every group, attribute and dataset of the file, so that HDF5 checks every checksum it
  // holds; returns a line per problem, naming the object: an object that cannot be read (damaged),
  // and what the format leaves unprotected (a superblock without checksum, a dataset without the
  // Fletcher-32 filter, a variable-length string attribute in the global heap, which has no
  // checksum). Empty: whole, and protected throughout.
  std::vector<std::string> CheckIntegrity() const;

  bool Exists(const std::string& path) const;
  // A dataset's shape, and (if growing is not null) whether its first dimension grows (series, blocks).
  std::vector<std::size_t> Shape(const std::string& path, bool* growing = nullptr) const;
  void CreateGroup(const std::string& path);  // no-op if it exists
  void Move(const std::string& from, const std::string& to);
  // Makes `link` a second name (an HDF5 hard link) of the existing object at `target`: one copy on
  // disk, read the same through either path.
  void HardLink(const std::string& target, const std::string& link);
  // Writes a file `out` holding every group, dataset and string attribute of this file except the
  // objects at the paths in `skip` (and what lies under them); the copy is compact: nothing it leaves
  // out takes space in it. `finish`, if given, edits the copy before it becomes `out`. Holds out's
  // writer lock throughout and writes a private temporary file that one rename makes `out`, so an
  // existing `out` (replaced only when `replace`; Error otherwise) stays whole until that rename.
  void CopyTo(const std::string& out, const std::vector<std::string>& skip, bool replace,
              const std::function<void(RunFile&)>& finish = {}) const;
  // Makes everything written so far the run file on disk (atomically). Also done on destruction.
  void Commit();
  // Drops everything written since the last Commit (a new file that never committed leaves none).
  void Discard();

 private:
  void Open(Mode mode, double wait_s);
  struct Impl;
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace glimpse
