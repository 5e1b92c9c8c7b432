// The whole-file checksum of a run file: glimpse appends "\n#glimpse crc32 XXXXXXXX\n" (the CRC-32 of
// every byte before it) after HDF5's end of file at each commit, and checks it before HDF5 parses
// anything, so a damaged file never reaches the HDF5 library (which can crash on some damaged
// structures). HDF5 and h5py ignore bytes past the end of file; a writer's HDF5 overwrites them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace glimpse {

// CRC-32 (zlib's) of `bytes` bytes, any length.
std::uint32_t Crc32(const void* data, std::size_t bytes);

// Appends the trailer for the file's current bytes.
void AppendFileChecksum(const std::string& path);

// After an edit outside glimpse (h5py): drops a trailer the file ends in, then appends the trailer for
// the bytes before it (the edit is trusted). glimpse.runs.reseal(path) from Python.
void ResealFileChecksum(const std::string& path);

// Checks a run file's bytes before HDF5 sees them. Returns true when they end in a matching trailer;
// false for a file of the earliest HDF5 format without one (an older glimpse), unless `required`;
// Error naming the file for anything else: not HDF5, a mismatching trailer, or a file of the
// checksummed format (superblock version 2 or later, as glimpse writes) whose trailer is gone.
bool CheckFileChecksum(const std::string& path, bool required);

}  // namespace glimpse
