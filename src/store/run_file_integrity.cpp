// RunFile::CheckIntegrity: a walk over every group, attribute and dataset of a run file, reading
// each so that HDF5 checks the checksums it holds, and listing what the format leaves unprotected.
#include <map>
#include <string>
#include <vector>

#include "src/store/run_file_impl.h"

namespace glimpse {
namespace {

// CheckIntegrity's walk of one object's attributes, and of a group with everything below it.
void CheckAttributes(const H5::H5Object& o, const std::string& path, std::vector<std::string>& problems) {
  for (int i = 0; i < o.getNumAttrs(); ++i) {
    try {
      H5::Attribute a = o.openAttribute(static_cast<unsigned>(i));
      if (a.getTypeClass() != H5T_STRING) continue;
      std::string v;
      a.read(a.getStrType(), v);
      if (a.getStrType().isVariableStr())
        problems.push_back("attribute '" + a.getName() + "' of '" + path +
                           "': a variable-length string (the global heap has no checksum)");
    } catch (const H5::Exception& e) {
      problems.push_back("attribute " + std::to_string(i) + " of '" + path + "' cannot be read (" + e.getDetailMsg() +
                         ")");
    }
  }
}

void CheckGroup(const H5::H5File& file, const std::string& path, std::vector<std::string>& problems) {
  H5::Group g;
  try {
    g = file.openGroup(path);
  } catch (const H5::Exception& e) {
    problems.push_back("group '" + path + "' cannot be read (" + e.getDetailMsg() + ")");
    return;
  }
  CheckAttributes(g, path, problems);
  hsize_t n = 0;
  try {
    n = g.getNumObjs();
  } catch (const H5::Exception& e) {
    problems.push_back("the members of '" + path + "' cannot be listed (" + e.getDetailMsg() + ")");
    return;
  }
  for (hsize_t i = 0; i < n; ++i) {
    std::string child;
    try {
      child = (path == "/" ? "" : path) + "/" + g.getObjnameByIdx(i);
      if (g.getObjTypeByIdx(i) == H5G_GROUP) {
        CheckGroup(file, child, problems);
        continue;
      }
      const H5::DataSet ds = file.openDataSet(child);
      CheckAttributes(ds, child, problems);
      const H5::DataSpace space = ds.getSpace();
      const H5::DataType type = ds.getDataType();
      const auto points = static_cast<std::size_t>(space.getSimpleExtentNpoints());
      std::vector<char> buf(points * type.getSize());
      if (!buf.empty()) ds.read(buf.data(), type);  // HDF5 checks each chunk's Fletcher-32 here
      if (points > 0 && !HasFletcher32(ds.getCreatePlist()))
        problems.push_back("dataset '" + child + "': its data carries no checksum");
    } catch (const H5::Exception& e) {
      problems.push_back("'" + (child.empty() ? path : child) + "' cannot be read (" + e.getDetailMsg() + ")");
    }
  }
}

}  // namespace

std::vector<std::string> RunFile::CheckIntegrity() const {
  std::vector<std::string> found, problems;
  try {
    if (!impl_->trailer) problems.push_back("no checksum of the whole file at its end (written by an older glimpse)");
    H5F_info2_t info;
    if (H5Fget_info2(impl_->File().getId(), &info) >= 0 && info.super.version < 2)
      problems.push_back("superblock version " + std::to_string(info.super.version) +
                         ": the format of an older glimpse, with no checksums on the file's metadata");
    CheckGroup(impl_->File(), "/", found);
  } catch (const H5::Exception& e) {
    found.push_back("the file cannot be read (" + e.getDetailMsg() + ")");
  }
  // Unprotected objects of one sort make one line; what cannot be read, a line each.
  std::map<std::string, std::vector<std::string>> unprotected;  // sort -> objects
  for (const std::string& p : found) {
    const auto colon = p.find("': ");
    const bool sorted = colon != std::string::npos && p.find("cannot be read") == std::string::npos;
    if (sorted)
      unprotected[p.substr(colon + 3)].push_back(p.substr(0, colon + 1));
    else
      problems.push_back(p);
  }
  for (const auto& [sort, objects] : unprotected)
    problems.push_back(std::to_string(objects.size()) + (objects.size() == 1 ? " object" : " objects") +
                       " unprotected: " + sort + " (" + objects.front() + (objects.size() > 1 ? ", ..." : "") + ")");
  return problems;
}

}  // namespace glimpse
