// Inside RunFile, for its .cpp files only (run_file.cpp, run_file_copy.cpp, run_file_integrity.cpp):
// the HDF5 handle and the writer's state, and the helpers they share. The public header, run_file.h, hides HDF5.
#pragma once

#include <H5Cpp.h>

#include <string>
#include <vector>

#include "src/core/error.h"

#include "src/train/run_file.h"

namespace glimpse {

struct RunFile::Impl {
  H5::H5File file;
  bool trailer = false;  // the file ended in a whole-file checksum when it was opened
  bool writable = false;
  bool dirty = false;
  std::string work;  // the private working copy that writes go to (writable modes)
  int lock_fd = -1;  // flock on PATH.lock: one writer per run file
};

// Whether a dataset's creation properties include the Fletcher-32 checksum filter.
bool HasFletcher32(const H5::DSetCreatPropList& props);

// Runs f, turning HDF5's exceptions (which are not std::exceptions) into Error.
template <class F>
auto Guard(const std::string& file, const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const H5::Exception& e) {
    Fail("HDF5 error in ", what, " on '", file, "': ", e.getDetailMsg(),
         " (disk full, read-only, or a corrupt file?)");
  }
}

bool FileExists(const std::string& p);

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
