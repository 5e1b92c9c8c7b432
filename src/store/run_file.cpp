#include "src/store/run_file.h"

#include <H5Cpp.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "src/core/error.h"
#include "src/store/file_checksum.h"
#include "src/store/run_file_impl.h"
#include "src/store/writer_lock.h"

namespace glimpse {
namespace {

bool require_checksums = false;  // RunFile::RequireChecksums (file_checksum.h)

constexpr const char* kMagicAttribute = "glimpse_version";

}  // namespace

bool FileExists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

bool HasFletcher32(const H5::DSetCreatPropList& props) {
  for (int i = 0; i < props.getNfilters(); ++i) {
    unsigned flags = 0, config = 0;
    size_t n = 0;
    char name[32];
    if (props.getFilter(i, flags, n, nullptr, sizeof(name), name, config) == H5Z_FILTER_FLETCHER32) return true;
  }
  return false;
}

void RunFile::RequireChecksums(bool require) { require_checksums = require; }

H5::FileAccPropList NoHdf5Locking() {
  // glimpse serialises writers itself (PATH.lock) and readers only ever see complete files.
  H5::FileAccPropList fapl;
  H5Pset_file_locking(fapl.getId(), false, true);
  // The 1.10 format: superblock, object headers, B-trees and heaps carry checksums, which HDF5
  // verifies on every read (the earliest format has none). Files of the earliest format still open.
  fapl.setLibverBounds(H5F_LIBVER_V110, H5F_LIBVER_V110);
  return fapl;
}

// A dataset's creation properties with its data checksummed: chunked (`chunk`, the chunk shape of a
// growing dataset, or else one chunk of the whole dataset) with the Fletcher-32 filter, so HDF5
// refuses a damaged chunk on reading. A fixed dataset of rank 0 or with no elements holds no data to
// protect and stays contiguous.
H5::DSetCreatPropList Checksummed(H5::DSetCreatPropList props, const std::vector<hsize_t>& dims,
                                  std::vector<hsize_t> chunk) {
  if (chunk.empty()) {
    if (dims.empty() || std::find(dims.begin(), dims.end(), hsize_t{0}) != dims.end()) return props;
    chunk = dims;
  }
  if (props.getLayout() != H5D_CHUNKED) props.setChunk(static_cast<int>(chunk.size()), chunk.data());
  if (!HasFletcher32(props)) props.setFletcher32();
  return props;
}

// A string attribute value as a fixed-length string: stored inside the (checksummed) object header,
// where a variable-length string would live in the global heap, which has no checksum.
void WriteStringAttribute(H5::H5Object& object, const std::string& name, const std::string& value) {
  H5::StrType st(H5::PredType::C_S1, std::max<std::size_t>(value.size(), 1));
  st.setStrpad(H5T_STR_NULLTERM);
  if (object.attrExists(name)) object.removeAttr(name);
  H5::Attribute a = object.createAttribute(name, st, H5::DataSpace(H5S_SCALAR));
  a.write(st, value);
}

void FsyncPath(const std::string& p) {
  const int fd = ::open(p.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

namespace {

std::string DirOf(const std::string& p) {
  const auto slash = p.rfind('/');
  return slash == std::string::npos ? "." : p.substr(0, slash == 0 ? 1 : slash);
}

}  // namespace

RunFile::RunFile(const std::string& path, Mode mode, double wait_s) : path_(path), impl_(std::make_unique<Impl>()) {
  try {
    Open(mode, wait_s);
  } catch (...) {  // the destructor does not run: release what Open took (the lock goes with impl_)
    impl_->Close();
    if (!impl_->work.empty()) std::remove(impl_->work.c_str());
    throw;
  }
}

void RunFile::Open(Mode mode, double wait_s) {
  const std::string& path = path_;
  H5::Exception::dontPrint();
  impl_->writable = mode != Mode::kReadOnly;
  impl_->real = path;
  if (impl_->writable) {
    impl_->lock = std::make_unique<WriterLock>(path, wait_s);  // before anything is written
    impl_->real = impl_->lock->real();
    impl_->lock->RemoveStale(".work");  // working copies of killed writers
  }
  const std::string& real = impl_->real;
  try {
    if (mode == Mode::kCreate || mode == Mode::kOverwrite) {
      Check(mode == Mode::kOverwrite || !FileExists(real), "'", path,
            "' exists; pass --force to overwrite it, or --resume to continue it");
      impl_->work = PrivateFile(real + ".work");
      impl_->file =
          std::make_unique<H5::H5File>(impl_->work, H5F_ACC_TRUNC, H5::FileCreatPropList::DEFAULT, NoHdf5Locking());
      impl_->dirty = true;
      return;
    }
    Check(FileExists(path), "run file '", path, "' does not exist");
    Check(std::filesystem::is_regular_file(path), "'", path, "' is not a file (a run file is one HDF5 file)");
    impl_->trailer = CheckFileChecksum(path, require_checksums);  // before HDF5 parses a byte of it
    bool hdf5 = false;
    try {
      hdf5 = H5::H5File::isHdf5(path);
    } catch (const H5::Exception&) {
    }
    Check(hdf5, "'", path, "' is not an HDF5 file (is it a glimpse run file?)");
    if (mode == Mode::kReadOnly) {
      impl_->file = std::make_unique<H5::H5File>(path, H5F_ACC_RDONLY, H5::FileCreatPropList::DEFAULT, NoHdf5Locking());
    } else {
      impl_->File();  // the private working copy
    }
  } catch (const H5::Exception& e) {
    Fail("cannot open '", path, "' as HDF5 (", e.getDetailMsg(), "): the file is damaged");
  }
  Check(Attributes("/").count(kMagicAttribute) == 1, "'", path, "' is an HDF5 file but not a glimpse run file (no '",
        kMagicAttribute, "' attribute)");
}

H5::H5File& RunFile::Impl::File() {
  if (writable && work.empty()) {
    const std::string copy = PrivateFile(real + ".work");
    try {
      CopyBytes(real, copy);
      file = std::make_unique<H5::H5File>(copy, H5F_ACC_RDWR, H5::FileCreatPropList::DEFAULT, NoHdf5Locking());
    } catch (const Error& e) {
      std::remove(copy.c_str());
      Fail(e.what(), "; the run file '", real, "' is intact");
    } catch (const H5::Exception& e) {
      std::remove(copy.c_str());
      Fail("cannot open the working copy '", copy, "' (", e.getDetailMsg(), "); the run file '", real, "' is intact");
    }
    work = copy;  // only once it is open: a working copy means an open file
  }
  Check(file != nullptr, "'", real, "' is closed");
  return *file;
}

namespace {
bool abandoned_any = false;  // RunFile::AbandonedAny
}  // namespace

void AbandonFile(std::unique_ptr<H5::H5File>& f) {
  (void)f.release();
  abandoned_any = true;
}

bool RunFile::AbandonedAny() { return abandoned_any; }

void RunFile::Impl::Close() {
  if (!file) return;
  try {
    file->close();
    file.reset();
  } catch (const H5::Exception&) {
    AbandonFile(file);
    failed = failed || writable;
  }
}

RunFile::~RunFile() {
  try {
    if (impl_->writable && impl_->dirty && !impl_->failed) Commit();
  } catch (...) {
  }
  impl_->Close();
  if (impl_->writable && !impl_->work.empty()) std::remove(impl_->work.c_str());
}

void RunFile::Discard() { impl_->dirty = false; }

void RunFile::Commit() {
  if (!impl_->writable || impl_->work.empty()) return;  // nothing written since the last commit
  Check(!impl_->failed, "'", path_, "' cannot be saved after a failed write; its last saved state is intact");
  Guard(*impl_, path_, "Commit", [&] { impl_->file->flush(H5F_SCOPE_GLOBAL); });
  impl_->Close();
  Check(!impl_->failed, "cannot save '", path_,
        "': HDF5 could not close it (disk full?); the last saved state is intact");
  // The working copy, checksummed whole, becomes the run file in one rename: a kill at any moment
  // leaves either the previous or the new complete file. The next write works on a new copy (File).
  const std::string work = impl_->work;
  impl_->work.clear();
  try {
    AppendFileChecksum(work);
  } catch (const Error& e) {
    std::remove(work.c_str());
    impl_->failed = true;  // what was written since the last commit is gone: nothing more is committed
    Fail(e.what(), " (disk full? the last saved state of '", path_, "' is intact)");
  }
  FsyncPath(work);
  if (std::rename(work.c_str(), impl_->real.c_str()) != 0) {
    const int e = errno;
    std::remove(work.c_str());
    impl_->failed = true;
    Fail("cannot save '", path_, "': ", std::strerror(e),
         " (disk full, or the folder read-only? the last saved state is intact)");
  }
  FsyncPath(DirOf(impl_->real));
  impl_->dirty = false;
}

std::vector<std::size_t> RunFile::Shape(const std::string& path, bool* growing) const {
  return Guard(*impl_, path_, "Shape", [&] {
    const H5::DataSpace sp = impl_->File().openDataSet(path).getSpace();
    const auto rank = static_cast<std::size_t>(sp.getSimpleExtentNdims());
    std::vector<hsize_t> dims(rank), maxdims(rank);
    if (rank > 0) sp.getSimpleExtentDims(dims.data(), maxdims.data());
    if (growing) *growing = rank > 0 && maxdims[0] == H5S_UNLIMITED;
    return std::vector<std::size_t>(dims.begin(), dims.end());
  });
}

bool RunFile::Exists(const std::string& path) const {
  return Guard(*impl_, path_, "Exists", [&] {
    // H5Lexists needs every intermediate link to exist: walk the path.
    std::string prefix;
    std::size_t pos = 1;
    while (pos <= path.size()) {
      const std::size_t next = path.find('/', pos);
      prefix = path.substr(0, next);
      if (H5Lexists(impl_->File().getId(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      if (next == std::string::npos) break;
      pos = next + 1;
    }
    return true;
  });
}

void RunFile::CreateGroup(const std::string& path) {
  return Guard(*impl_, path_, "CreateGroup", [&] {
    impl_->dirty = true;
    if (!Exists(path)) impl_->File().createGroup(path);
  });
}

void RunFile::Move(const std::string& from, const std::string& to) {
  return Guard(*impl_, path_, "Move", [&] {
    impl_->dirty = true;
    Check(
        H5Lmove(impl_->File().getId(), from.c_str(), impl_->File().getId(), to.c_str(), H5P_DEFAULT, H5P_DEFAULT) >= 0,
        "HDF5: cannot move '", from, "' to '", to, "' in '", path_, "'");
  });
}

void RunFile::SetAttribute(const std::string& object, const std::string& name, const std::string& value) {
  return Guard(*impl_, path_, "SetAttribute", [&] {
    impl_->dirty = true;
    H5::Group g = impl_->File().openGroup(object);
    WriteStringAttribute(g, name, value);
  });
}

void RunFile::HardLink(const std::string& target, const std::string& link) {
  return Guard(*impl_, path_, "HardLink", [&] {
    impl_->dirty = true;
    if (H5Lcreate_hard(impl_->File().getId(), target.c_str(), impl_->File().getId(), link.c_str(), H5P_DEFAULT,
                       H5P_DEFAULT) < 0)
      throw H5::Exception("H5Lcreate_hard", "cannot link " + link + " to " + target);
  });
}

void RunFile::RemoveAttribute(const std::string& object, const std::string& name) {
  return Guard(*impl_, path_, "RemoveAttribute", [&] {
    impl_->dirty = true;
    H5::Group g = impl_->File().openGroup(object);
    if (g.attrExists(name)) g.removeAttr(name);
  });
}

std::map<std::string, std::string> RunFile::Attributes(const std::string& object) const {
  return Guard(*impl_, path_, "Attributes", [&] {
    std::map<std::string, std::string> out;
    H5::Group g = impl_->File().openGroup(object);
    const int n = g.getNumAttrs();
    for (int i = 0; i < n; ++i) {
      H5::Attribute a = g.openAttribute(static_cast<unsigned>(i));
      if (a.getTypeClass() != H5T_STRING) continue;
      std::string v;
      a.read(a.getStrType(), v);
      out[a.getName()] = v;
    }
    return out;
  });
}

}  // namespace glimpse
