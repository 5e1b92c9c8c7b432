// Inside RunFile, for its .cpp files only (run_file.cpp, run_file_data.cpp, run_file_copy.cpp,
// run_file_integrity.cpp):
// the HDF5 handle and the writer's state, and the helpers they share. The public header, run_file.h, hides HDF5.
#pragma once

#include <H5Cpp.h>

#include <memory>
#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/store/run_file.h"
#include "src/store/writer_lock.h"

namespace glimpse {

struct RunFile::Impl {
  std::unique_ptr<H5::H5File> file;  // null once closed
  bool trailer = false;              // the file ended in a whole-file checksum when it was opened
  bool writable = false;
  bool dirty = false;
  std::string real;  // the run file with every link resolved (writable modes): where Commit renames to
  std::string work;  // the private working copy that writes go to; empty after a Commit until the next use
  std::unique_ptr<WriterLock> lock;  // one writer per real file (writable modes)
  // An HDF5 call failed (a full disk): the working copy is suspect, so nothing more is committed, and
  // the file is closed at most once (Abandon).
  bool failed = false;
  // The open file: after a Commit, a new private working copy of the committed file is made first, so
  // that a failure to copy (a full disk) is reported by the next write, not by the commit that saved.
  H5::H5File& File();
  // Closes the file; a failure abandons it (AbandonFile).
  void Close();
};

// Whether a dataset's creation properties include the Fletcher-32 checksum filter.
bool HasFletcher32(const H5::DSetCreatPropList& props);

// Runs f, turning HDF5's exceptions (which are not std::exceptions) into Error.
template <class F>
auto Guard(const std::string& file, const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const H5::Exception& e) {
    Fail("HDF5 error in ", what, " on '", file, "': ", e.getDetailMsg(), " (disk full, read-only, or a corrupt file?)");
  }
}

// Guard for a RunFile's own file: a failure also marks it failed (Impl::failed).
template <class Impl, class F>
auto Guard(Impl& impl, const std::string& file, const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const H5::Exception& e) {
    if (impl.writable) impl.failed = true;
    Fail("HDF5 error in ", what, " on '", file, "': ", e.getDetailMsg(),
         impl.writable ? " (disk full? the last saved state of the run file is intact)" : " (a corrupt file?)");
  }
}

// The HDF5 type of a stored element type (float, double, std::int32_t, std::int64_t, std::uint64_t).
template <class T>
const H5::PredType& H5Type();
template <>
inline const H5::PredType& H5Type<float>() {
  return H5::PredType::NATIVE_FLOAT;
}
template <>
inline const H5::PredType& H5Type<double>() {
  return H5::PredType::NATIVE_DOUBLE;
}
template <>
inline const H5::PredType& H5Type<std::int32_t>() {
  return H5::PredType::NATIVE_INT32;
}
template <>
inline const H5::PredType& H5Type<std::int64_t>() {
  return H5::PredType::NATIVE_INT64;
}
template <>
inline const H5::PredType& H5Type<std::uint64_t>() {
  return H5::PredType::NATIVE_UINT64;
}

bool FileExists(const std::string& p);

// After a failed H5Fclose (a full disk), HDF5 has freed part of the file but keeps its id, and a second
// close (as H5File's destructor makes) crashes inside HDF5. AbandonFile lets go of f without
// destroying it: the half-closed file is leaked, never touched again.
void AbandonFile(std::unique_ptr<H5::H5File>& f);

// File access without HDF5's own locking (glimpse locks PATH.lock itself), in the 1.10 format whose
// metadata carries checksums.
H5::FileAccPropList NoHdf5Locking();

// A dataset's creation properties with its data checksummed (chunked, Fletcher-32); `chunk` is the
// chunk shape of a growing dataset, empty for one chunk of the whole dataset.
H5::DSetCreatPropList Checksummed(H5::DSetCreatPropList props, const std::vector<hsize_t>& dims,
                                  std::vector<hsize_t> chunk = {});

// Writes a string attribute as a fixed-length string (inside the checksummed object header).
void WriteStringAttribute(H5::H5Object& object, const std::string& name, const std::string& value);

// fsync of a file or folder by path; errors are ignored (best effort before a rename).
void FsyncPath(const std::string& p);

}  // namespace glimpse
