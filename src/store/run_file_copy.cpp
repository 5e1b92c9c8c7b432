// RunFile::CopyTo: a rewritten copy of a run file (what `glimpse slim` writes),
// every dataset checksummed whatever the source had, written to OUT.tmp and renamed into place.
#include <H5Cpp.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/store/file_checksum.h"
#include "src/store/run_file.h"
#include "src/store/run_file_impl.h"
#include "src/store/writer_lock.h"

namespace glimpse {
namespace {

// Copies the string attributes of src onto dst (glimpse writes only string attributes), in the
// checksummed form (WriteStringAttribute).
void CopyStringAttributes(const H5::H5Object& src, H5::H5Object& dst) {
  for (int i = 0; i < src.getNumAttrs(); ++i) {
    H5::Attribute a = src.openAttribute(static_cast<unsigned>(i));
    if (a.getTypeClass() != H5T_STRING) continue;
    std::string v;
    a.read(a.getStrType(), v);
    WriteStringAttribute(dst, a.getName(), v);
  }
}

// Copies dataset `path` of src into dst, rewritten: the same type, shape, growth and fill value, its
// data deflated and checksummed (Checksummed) whatever the source had, and its string attributes.
void CopyDataset(const H5::H5File& src, H5::H5File& dst, const std::string& path) {
  const H5::DataSet from = src.openDataSet(path);
  const H5::DataSpace space = from.getSpace();
  const H5::DataType type = from.getDataType();
  std::vector<hsize_t> dims(static_cast<std::size_t>(space.getSimpleExtentNdims()));
  if (!dims.empty()) space.getSimpleExtentDims(dims.data());
  H5::DSetCreatPropList props = from.getCreatePlist();
  std::vector<hsize_t> chunk;
  if (props.getLayout() == H5D_CHUNKED) {  // keep the source's chunks (growing series and blocks)
    chunk.resize(dims.size());
    props.getChunk(static_cast<int>(chunk.size()), chunk.data());
  } else if (!dims.empty() && std::find(dims.begin(), dims.end(), hsize_t{0}) == dims.end()) {
    chunk = dims;  // one chunk, as Checksummed would make it
    props.setChunk(static_cast<int>(chunk.size()), chunk.data());
  }
  if (!chunk.empty()) {  // deflated (the logged canvases are mostly zeros), then checksummed last
    if (HasFletcher32(props)) props.removeFilter(H5Z_FILTER_FLETCHER32);
    props.setDeflate(6);
  }
  H5::DataSet to = dst.createDataSet(path, type, space, Checksummed(props, dims, chunk));
  std::vector<char> buf(static_cast<std::size_t>(space.getSimpleExtentNpoints()) * type.getSize());
  if (!buf.empty()) {
    from.read(buf.data(), type);
    to.write(buf.data(), type);
  }
  CopyStringAttributes(from, to);
}

// Recursive copy of group `path` of src into dst (the group exists in dst), leaving out `skip`.
void CopyGroup(const H5::H5File& src, H5::H5File& dst, const std::string& path, const std::vector<std::string>& skip) {
  const H5::Group from = src.openGroup(path);
  H5::Group to = dst.openGroup(path);
  CopyStringAttributes(from, to);
  for (hsize_t i = 0; i < from.getNumObjs(); ++i) {
    const std::string name = from.getObjnameByIdx(i);
    const std::string child = (path == "/" ? "" : path) + "/" + name;
    if (std::find(skip.begin(), skip.end(), child) != skip.end()) continue;
    if (from.getObjTypeByIdx(i) == H5G_GROUP) {
      dst.createGroup(child);
      CopyGroup(src, dst, child, skip);
    } else {
      CopyDataset(src, dst, child);
    }
  }
}

}  // namespace

void RunFile::CopyTo(const std::string& out, const std::vector<std::string>& skip, bool replace,
                     const std::function<void(RunFile&)>& finish) const {
  const WriterLock lock(out);  // before anything is written: no second writer, slim or training
  Check(replace || !FileExists(lock.real()), "'", out, "' exists; pass --force to overwrite it");
  lock.RemoveStale(".tmp");  // what a killed copy left
  const std::string tmp = PrivateFile(lock.real() + ".tmp");
  try {
    Guard(out, "CopyTo", [&] {
      auto dst = std::make_unique<H5::H5File>(tmp, H5F_ACC_TRUNC, H5::FileCreatPropList::DEFAULT, NoHdf5Locking());
      try {
        CopyGroup(impl_->File(), *dst, "/", skip);
        dst->close();
      } catch (const H5::Exception&) {
        AbandonFile(dst);  // never closed a second time (run_file_impl.h)
        throw;
      }
    });
    AppendFileChecksum(tmp);
    if (finish) {  // edits of the copy, committed to it before it becomes `out`
      RunFile copy(tmp, Mode::kReadWrite);
      finish(copy);
      copy.Commit();
    }
    FsyncPath(tmp);
    if (std::rename(tmp.c_str(), lock.real().c_str()) != 0)
      Fail("cannot write '", out, "': ", std::strerror(errno), " (disk full, or the folder read-only?)");
  } catch (...) {
    std::remove(tmp.c_str());  // the old `out`, if any, is untouched: only the rename replaces it
    throw;
  }
}

}  // namespace glimpse
