// RunFile's data: the series (one row per log interval or evaluation), fixed arrays and growing
// blocks (one block per evaluation), each dataset checksummed (Checksummed) and every HDF5 call guarded.
#include <H5Cpp.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "src/core/error.h"
#include "src/store/run_file.h"
#include "src/store/run_file_impl.h"

namespace glimpse {

void RunFile::Append(const std::string& group, const std::vector<std::pair<std::string, double>>& row) {
  return Guard(*impl_, path_, "Append", [&] {
    impl_->dirty = true;
    CreateGroup(group);
    const std::size_t n = SeriesLength(group);
    for (const auto& [name, value] : row) {
      const std::string p = group + "/" + name;
      if (!Exists(p)) {
        // A series new to a group that already has rows (a run made by an older glimpse, resumed)
        // starts with NaN for the earlier rows, so the group's series keep one length.
        hsize_t dims[1] = {n}, maxdims[1] = {H5S_UNLIMITED};
        H5::DataSpace space(1, dims, maxdims);
        H5::DSetCreatPropList props;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        props.setFillValue(H5::PredType::NATIVE_DOUBLE, &nan);
        impl_->File().createDataSet(p, H5::PredType::NATIVE_DOUBLE, space, Checksummed(props, {n}, {256}));
      }
      H5::DataSet ds = impl_->File().openDataSet(p);
      hsize_t cur = static_cast<hsize_t>(ds.getSpace().getSimpleExtentNpoints());
      Check(cur == n, "series '", p, "' has ", cur, " rows, expected ", n);
      hsize_t size[1] = {cur + 1}, offset[1] = {cur}, count[1] = {1};
      ds.extend(size);
      H5::DataSpace fs = ds.getSpace();
      fs.selectHyperslab(H5S_SELECT_SET, count, offset);
      H5::DataSpace ms(1, count);
      ds.write(&value, H5::PredType::NATIVE_DOUBLE, ms, fs);
    }
  });
}

std::vector<std::string> RunFile::SeriesNames(const std::string& group) const {
  return Guard(*impl_, path_, "SeriesNames", [&] {
    std::vector<std::string> names;
    if (!Exists(group)) return names;
    H5::Group g = impl_->File().openGroup(group);
    for (hsize_t i = 0; i < g.getNumObjs(); ++i)
      if (g.getObjTypeByIdx(i) == H5G_DATASET) names.push_back(g.getObjnameByIdx(i));
    return names;
  });
}

std::size_t RunFile::SeriesLength(const std::string& group) const {
  return Guard(*impl_, path_, "SeriesLength", [&] {
    const auto names = SeriesNames(group);
    if (names.empty()) return std::size_t{0};
    return static_cast<std::size_t>(
        impl_->File().openDataSet(group + "/" + names[0]).getSpace().getSimpleExtentNpoints());
  });
}

std::vector<double> RunFile::ReadSeries(const std::string& group, const std::string& name) const {
  return Guard(*impl_, path_, "ReadSeries", [&] { return ReadArray<double>(group + "/" + name); });
}

void RunFile::TruncateSeries(const std::string& group, std::size_t length) {
  return Guard(*impl_, path_, "TruncateSeries", [&] {
    impl_->dirty = true;
    for (const auto& name : SeriesNames(group)) TruncateBlocks<double>(group + "/" + name, length);
  });
}

template <class T>
void RunFile::WriteArray(const std::string& path, const std::vector<std::size_t>& shape, const T* data) {
  return Guard(*impl_, path_, "WriteArray", [&] {
    impl_->dirty = true;
    std::vector<hsize_t> dims(shape.begin(), shape.end());
    if (Exists(path)) {
      H5::DataSet ds = impl_->File().openDataSet(path);
      H5::DataSpace sp = ds.getSpace();
      std::vector<hsize_t> cur(static_cast<std::size_t>(sp.getSimpleExtentNdims()));
      sp.getSimpleExtentDims(cur.data());
      if (cur == dims && ds.getDataType() == H5Type<T>()) {
        ds.write(data, H5Type<T>());
        return;
      }
      H5Ldelete(impl_->File().getId(), path.c_str(), H5P_DEFAULT);
    }
    H5::DataSpace space(static_cast<int>(dims.size()), dims.data());
    H5::DataSet ds = impl_->File().createDataSet(path, H5Type<T>(), space, Checksummed(H5::DSetCreatPropList(), dims));
    ds.write(data, H5Type<T>());
  });
}

template <class T>
std::vector<T> RunFile::ReadArray(const std::string& path, std::vector<std::size_t>* shape) const {
  return Guard(*impl_, path_, "ReadArray", [&] {
    Check(Exists(path), "'", path_, "' has no dataset '", path, "'");
    H5::DataSet ds = impl_->File().openDataSet(path);
    H5::DataSpace sp = ds.getSpace();
    std::vector<hsize_t> dims(static_cast<std::size_t>(sp.getSimpleExtentNdims()));
    sp.getSimpleExtentDims(dims.data());
    if (shape) shape->assign(dims.begin(), dims.end());
    // A damaged or hostile file may declare more values than it holds: deflate packs at most about
    // 1,032:1, so more than that over the stored bytes is refused before anything is allocated.
    const auto values = static_cast<std::uint64_t>(sp.getSimpleExtentNpoints());
    const std::uint64_t stored = ds.getStorageSize();
    Check(values <= ((std::uint64_t{1} << 20) + 1100 * stored) / sizeof(T), "'", path_, "': dataset '", path,
          "' declares ", values, " values in ", stored, " stored bytes: the file is damaged");
    std::vector<T> out(static_cast<std::size_t>(values));
    if (!out.empty()) ds.read(out.data(), H5Type<T>());
    return out;
  });
}

template <class T>
void RunFile::AppendBlock(const std::string& path, const std::vector<std::size_t>& block_shape, const T* data) {
  return Guard(*impl_, path_, "AppendBlock", [&] {
    impl_->dirty = true;
    const int rank = static_cast<int>(block_shape.size()) + 1;
    std::vector<hsize_t> count(rank, 1), offset(rank, 0);
    for (int i = 1; i < rank; ++i) count[i] = block_shape[i - 1];
    if (!Exists(path)) {
      std::vector<hsize_t> dims = count, maxdims = count, chunk = count;
      dims[0] = 0;
      maxdims[0] = H5S_UNLIMITED;
      H5::DataSpace space(rank, dims.data(), maxdims.data());
      impl_->File().createDataSet(path, H5Type<T>(), space, Checksummed(H5::DSetCreatPropList(), dims, chunk));
    }
    H5::DataSet ds = impl_->File().openDataSet(path);
    std::vector<hsize_t> size(rank);
    ds.getSpace().getSimpleExtentDims(size.data());
    for (int i = 1; i < rank; ++i)
      Check(size[i] == count[i], "'", path, "': block dimension ", i, " is ", count[i], ", expected ", size[i]);
    offset[0] = size[0];
    size[0] += 1;
    ds.extend(size.data());
    H5::DataSpace fs = ds.getSpace();
    fs.selectHyperslab(H5S_SELECT_SET, count.data(), offset.data());
    H5::DataSpace ms(rank, count.data());
    ds.write(data, H5Type<T>(), ms, fs);
  });
}

template <class T>
void RunFile::TruncateBlocks(const std::string& path, std::size_t length) {
  return Guard(*impl_, path_, "TruncateBlocks", [&] {
    impl_->dirty = true;
    if (!Exists(path)) return;
    H5::DataSet ds = impl_->File().openDataSet(path);
    H5::DataSpace sp = ds.getSpace();
    std::vector<hsize_t> dims(static_cast<std::size_t>(sp.getSimpleExtentNdims()));
    sp.getSimpleExtentDims(dims.data());
    if (dims[0] <= length) return;
    dims[0] = length;
    Check(H5Dset_extent(ds.getId(), dims.data()) >= 0, "HDF5: cannot truncate '", path, "'");
  });
}

void RunFile::TruncateGroupBlocks(const std::string& group, std::size_t length) {
  return Guard(*impl_, path_, "TruncateGroupBlocks", [&] {
    for (const auto& name : SeriesNames(group)) {  // every dataset of the group (empty if none)
      bool growing = false;
      Shape(group + "/" + name, &growing);
      if (growing) TruncateBlocks<float>(group + "/" + name, length);  // the type plays no part
    }
  });
}

#define GLIMPSE_RUNFILE_INSTANTIATE(T)                                                                  \
  template void RunFile::WriteArray<T>(const std::string&, const std::vector<std::size_t>&, const T*);  \
  template std::vector<T> RunFile::ReadArray<T>(const std::string&, std::vector<std::size_t>*) const;   \
  template void RunFile::AppendBlock<T>(const std::string&, const std::vector<std::size_t>&, const T*); \
  template void RunFile::TruncateBlocks<T>(const std::string&, std::size_t);
GLIMPSE_RUNFILE_INSTANTIATE(float)
GLIMPSE_RUNFILE_INSTANTIATE(double)
GLIMPSE_RUNFILE_INSTANTIATE(std::int32_t)
GLIMPSE_RUNFILE_INSTANTIATE(std::int64_t)
GLIMPSE_RUNFILE_INSTANTIATE(std::uint64_t)
#undef GLIMPSE_RUNFILE_INSTANTIATE

}  // namespace glimpse
