#include "src/train/verify.h"

#include <map>

#include "src/core/error.h"
#include "src/store/checkpoint.h"
#include "src/store/run_file.h"
#include "src/train/run_config.h"

namespace glimpse {
namespace {

// Series groups hold 1-D series of one length; example groups hold blocks, one per evaluation.
const char* const kSeriesGroups[] = {"/train", "/eval", "/diagnostics"};
const char* const kExampleGroups[] = {"/trajectories", "/attention"};

void CheckCheckpoints(const RunFile& f, std::vector<std::string>& problems) {
  // A copy without parameters (slim --curves-only, runs.write_run) says how many epochs it holds instead.
  if (!HasCheckpoint(f) && !f.Attributes("/").count("epochs_done")) problems.push_back("no complete checkpoint");
  std::vector<std::string> slots = CheckpointGroups();
  slots.push_back(kBestGroup);
  for (const std::string& slot : slots) {
    if (!f.Exists(slot)) continue;
    const auto a = f.Attributes(slot);
    if (!a.count("complete") || a.at("complete") != "1") continue;  // a slot being written: unused
    if (!a.count("digest:params"))
      problems.push_back(slot +
                         ": no digest of its parameters (written by an older glimpse: glimpse slim "
                         "writes a copy with one)");
    for (const auto& [name, stored] : a) {
      if (name.rfind("digest:", 0) != 0) continue;
      const std::string part = name.substr(7), path = slot + "/" + part;
      if (!f.Exists(path)) {
        problems.push_back(slot + ": a digest for '" + part + "', which is missing");
        continue;
      }
      try {
        const std::vector<float> data = f.ReadArray<float>(path);
        CheckDigest(f, slot, part, data.data(), data.size() * sizeof(float));
      } catch (const Error& e) {
        problems.push_back(e.what());
      }
    }
  }
}

// The length of each group's series (or example blocks), and a problem for a group whose members
// disagree. Example groups are counted under "/trajectories", the checkpoint's key for either.
std::map<std::string, std::size_t> CheckLengths(const RunFile& f, std::vector<std::string>& problems) {
  std::map<std::string, std::size_t> lengths;
  auto check = [&](const std::string& group, const std::string& key) {
    if (!f.Exists(group)) return;
    std::string first;
    std::size_t n = 0;
    for (const auto& name : f.SeriesNames(group)) {
      bool growing = false;
      const std::vector<std::size_t> shape = f.Shape(group + "/" + name, &growing);
      if (!growing) continue;  // a fixed array beside the blocks (the logged images)
      if (first.empty()) {
        first = name, n = shape[0];
      } else if (shape[0] != n) {
        problems.push_back("'" + group + "': '" + name + "' has " + std::to_string(shape[0]) + " rows, '" + first +
                           "' " + std::to_string(n));
      }
    }
    if (!first.empty()) lengths[key] = n;
  };
  for (const char* g : kSeriesGroups) check(g, g);
  for (const char* g : kExampleGroups) check(g, "/trajectories");
  return lengths;
}

}  // namespace

std::vector<std::string> VerifyRun(const std::string& path) {
  std::vector<std::string> problems;
  try {
    const RunFile f(path, RunFile::Mode::kReadOnly);
    problems = f.CheckIntegrity();
    if (!problems.empty() && problems.front().find("cannot be read") != std::string::npos) return problems;
    try {
      Validate(ConfigFromRun(f));
    } catch (const Error& e) {
      problems.push_back(std::string("its configuration: ") + e.what());
    }
    CheckCheckpoints(f, problems);
    const auto lengths = CheckLengths(f, problems);
    if (HasCheckpoint(f)) {  // the checkpoint lies within the series it counted
      for (const auto& [key, value] : f.Attributes(CheckpointGroup(f))) {
        if (key.rfind("length:", 0) != 0) continue;
        const std::string group = key.substr(7);
        const std::size_t have = lengths.count(group) ? lengths.at(group) : 0;
        if (std::stoll(value) > static_cast<long long>(have))
          problems.push_back("the checkpoint counts " + value + " rows of '" + group + "', the file holds " +
                             std::to_string(have));
      }
    }
  } catch (const Error& e) {
    problems.push_back(e.what());
  } catch (const std::exception& e) {
    problems.push_back(std::string("unreadable: ") + e.what());
  }
  return problems;
}

}  // namespace glimpse
