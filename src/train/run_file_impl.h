// Inside RunFile, for its .cpp files only (run_file.cpp, run_file_integrity.cpp): the HDF5 handle and
// the writer's state, and helpers both use. The public header, run_file.h, hides HDF5.
#pragma once

#include <H5Cpp.h>

#include <string>

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

}  // namespace glimpse
