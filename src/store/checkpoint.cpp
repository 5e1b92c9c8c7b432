#include "src/store/checkpoint.h"

#include <cstdio>
#include <cstring>
#include <sstream>

#include "src/core/error.h"
#include "src/store/file_checksum.h"
#include "src/store/run_rules.h"

namespace glimpse {
namespace {

std::string Num(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

std::string JoinShape(const std::vector<std::size_t>& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "x" : "") + std::to_string(s[i]);
  return out;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

template <class T>
std::string Digest(const std::vector<T>& v) {
  return DigestOf(v.data(), v.size() * sizeof(T));
}

// The parameters with their table and digest, and step and epoch, into group `slot`.
void WriteParams(RunFile& f, const std::string& slot, const Checkpoint& c) {
  f.CreateGroup(slot);
  f.SetAttribute(slot, "complete", "0");
  f.WriteArray<float>(slot + "/params", {c.params.size()}, c.params.data());
  f.SetAttribute(slot, "digest:params", Digest(c.params));
  std::string names, shapes;
  std::vector<std::int64_t> offsets;
  for (const auto& p : c.table) {
    names += p.name + "\n";
    shapes += JoinShape(p.shape) + "\n";
    offsets.push_back(static_cast<std::int64_t>(p.offset));
  }
  f.WriteArray<std::int64_t>(slot + "/param_offsets", {offsets.size()}, offsets.data());
  f.SetAttribute(slot, "param_names", names);
  f.SetAttribute(slot, "param_shapes", shapes);
  f.SetAttribute(slot, "step", std::to_string(c.step));
  f.SetAttribute(slot, "epoch", std::to_string(c.epoch));
}

// What WriteParams wrote (the digest checked), from a complete slot.
void ReadParams(const RunFile& f, const std::string& slot, Checkpoint& c) {
  const auto a = f.Attributes(slot);
  c.step = std::stoll(a.at("step"));
  c.epoch = std::stoll(a.at("epoch"));
  c.params = f.ReadArray<float>(slot + "/params");
  CheckDigest(f, slot, "params", c.params.data(), c.params.size() * sizeof(float));
  const auto offsets = f.ReadArray<std::int64_t>(slot + "/param_offsets");
  const auto names = Split(a.at("param_names"), '\n');
  const auto shapes = Split(a.at("param_shapes"), '\n');
  Check(names.size() == offsets.size() && shapes.size() == offsets.size(), "'", f.path(),
        "': the checkpoint's parameter table is inconsistent");
  for (std::size_t i = 0; i < names.size(); ++i) {
    ParamInfo p;
    p.name = names[i];
    p.offset = static_cast<std::size_t>(offsets[i]);
    p.size = 1;
    for (const auto& d : Split(shapes[i], 'x')) {
      p.shape.push_back(static_cast<std::size_t>(std::stoull(d)));
      p.size *= p.shape.back();
    }
    c.table.push_back(p);
  }
}

void WriteSlot(RunFile& f, const std::string& slot, const Checkpoint& c) {
  WriteParams(f, slot, c);
  f.CreateGroup(slot + "/optimizer");
  for (const auto& [name, buf] : c.optimizer) {
    f.WriteArray<float>(slot + "/optimizer/" + name, {buf.size()}, buf.data());
    f.SetAttribute(slot, "digest:optimizer/" + name, Digest(buf));
  }
  f.CreateGroup(slot + "/rng");
  for (const auto& [name, st] : c.rngs) {
    std::uint64_t words[6] = {st.s[0], st.s[1], st.s[2], st.s[3], st.has_spare, 0};
    std::memcpy(&words[5], &st.spare, sizeof(double));
    f.WriteArray<std::uint64_t>(slot + "/rng/" + name, {6}, words);
  }
  f.SetAttribute(slot, "optimizer_steps", std::to_string(c.optimizer_steps));
  for (const auto& [k, v] : c.lengths) f.SetAttribute(slot, "length:" + k, std::to_string(v));
  for (const auto& [k, v] : c.scalars) f.SetAttribute(slot, "scalar:" + k, Num(v));
  f.SetAttribute(slot, "complete", "1");
}

}  // namespace

std::string DigestOf(const void* data, std::size_t bytes) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "crc32:%08x", static_cast<unsigned>(Crc32(data, bytes)));
  return hex;
}

void CheckDigest(const RunFile& f, const std::string& slot, const std::string& part, const void* data,
                 std::size_t bytes) {
  const auto a = f.Attributes(slot);
  const auto it = a.find("digest:" + part);
  if (it == a.end()) return;  // written before digests (migrate with glimpse slim)
  const std::string now = DigestOf(data, bytes);
  Check(now == it->second, "'", f.path(), "' is damaged: the checkpoint's ", part, " (", slot, "/", part,
        ") has digest ", now, ", but ", it->second, " was stored with it");
}

void SaveCheckpoint(RunFile& f, const Checkpoint& c) {
  // Write the spare slot (reusing its datasets in place), then make it /checkpoint.
  const std::string spare = f.Exists("/checkpoint_next") ? "/checkpoint_next" : "/checkpoint_new";
  WriteSlot(f, spare, c);
  if (f.Exists("/checkpoint")) f.Move("/checkpoint", "/checkpoint_prev");
  f.Move(spare, "/checkpoint");
  if (f.Exists("/checkpoint_prev")) f.Move("/checkpoint_prev", "/checkpoint_next");
}

const std::vector<std::string>& CheckpointGroups() {
  static const std::vector<std::string> groups = {"/checkpoint", "/checkpoint_next", "/checkpoint_prev",
                                                  "/checkpoint_new"};
  return groups;
}

namespace {
// The complete slot with the highest step, or "" if none (ChosenCheckpointSlot, src/store/run_rules.h).
std::string BestSlot(const RunFile& f) {
  std::vector<CheckpointSlot> slots;
  for (const auto& slot : CheckpointGroups()) {
    if (!f.Exists(slot)) continue;
    const auto a = f.Attributes(slot);
    slots.push_back({slot, a.count("complete") && a.at("complete") == "1",
                     a.count("step") ? std::stoll(a.at("step")) : std::int64_t{-1}});
  }
  return ChosenCheckpointSlot(slots);
}
}  // namespace

bool HasCheckpoint(const RunFile& f) { return !BestSlot(f).empty(); }

std::int64_t EpochsDone(const RunFile& f) {
  if (HasCheckpoint(f)) return LoadCheckpoint(f).epoch;
  const auto attrs = f.Attributes("/");
  const auto it = attrs.find("epochs_done");
  if (it == attrs.end()) return 0;
  try {
    return std::stoll(it->second);
  } catch (const std::exception&) {
    Fail("'", f.path(), "': root attribute epochs_done is '", it->second, "', not a whole number");
  }
}

std::string CheckpointGroup(const RunFile& f) { return BestSlot(f); }

Checkpoint LoadCheckpoint(const RunFile& f) {
  const std::string slot = BestSlot(f);
  Check(!slot.empty(), "'", f.path(), "' holds no complete checkpoint",
        !f.Attributes("/").count("epochs_done") ? ""
        : HasBestCheckpoint(f)
            ? " (it keeps the validation-selected parameters only, a copy made by glimpse slim --best-only: "
              "--checkpoint best evaluates them)"
            : " (it keeps curves only: a copy made by glimpse slim --curves-only, or a run trained outside glimpse)");
  Checkpoint c;
  ReadParams(f, slot, c);
  const auto a = f.Attributes(slot);
  c.optimizer_steps = std::stoll(a.at("optimizer_steps"));
  for (const auto& [k, v] : a) {
    if (k.rfind("length:", 0) == 0) c.lengths[k.substr(7)] = std::stoll(v);
    if (k.rfind("scalar:", 0) == 0) c.scalars[k.substr(7)] = std::stod(v);
  }
  // Optimizer buffers and Rng streams: every dataset under the two groups.
  for (const auto& name : f.SeriesNames(slot + "/optimizer")) {
    c.optimizer[name] = f.ReadArray<float>(slot + "/optimizer/" + name);
    CheckDigest(f, slot, "optimizer/" + name, c.optimizer[name].data(), c.optimizer[name].size() * sizeof(float));
  }
  for (const auto& name : f.SeriesNames(slot + "/rng")) {
    const auto w = f.ReadArray<std::uint64_t>(slot + "/rng/" + name);
    Check(w.size() == 6, "'", f.path(), "': Rng state '", name, "' has ", w.size(), " words, expected 6");
    Rng::State st;
    for (int i = 0; i < 4; ++i) st.s[i] = w[i];
    st.has_spare = w[4];
    std::memcpy(&st.spare, &w[5], sizeof(double));
    c.rngs[name] = st;
  }
  return c;
}

void SaveBestCheckpoint(RunFile& f, const Checkpoint& c, double val_error) {
  WriteParams(f, kBestGroup, c);
  f.SetAttribute(kBestGroup, "val_error", Num(val_error));
  f.SetAttribute(kBestGroup, "complete", "1");
}

void SaveBestTestAnswers(RunFile& f, std::int64_t epoch, const std::vector<std::int32_t>& labels,
                         const std::vector<std::int32_t>& answers) {
  Check(labels.size() == answers.size(), "best test answers: ", labels.size(), " labels, ", answers.size(), " answers");
  f.CreateGroup(kBestTestGroup);
  f.SetAttribute(kBestTestGroup, "epoch", "none");  // until both arrays are written
  f.WriteArray<std::int32_t>(std::string(kBestTestGroup) + "/labels", {labels.size()}, labels.data());
  f.WriteArray<std::int32_t>(std::string(kBestTestGroup) + "/answers", {answers.size()}, answers.data());
  f.SetAttribute(kBestTestGroup, "epoch", std::to_string(epoch));
}

void MarkBestTestAnswersStale(RunFile& f) {
  if (f.Exists(kBestTestGroup)) f.SetAttribute(kBestTestGroup, "epoch", "none");
}

bool HasBestCheckpoint(const RunFile& f) {
  if (!f.Exists(kBestGroup)) return false;
  const auto a = f.Attributes(kBestGroup);
  return a.count("complete") && a.at("complete") == "1";
}

Checkpoint LoadBestCheckpoint(const RunFile& f, double* val_error) {
  Check(HasBestCheckpoint(f), "'", f.path(), "' holds no best-by-validation checkpoint (a run of an older glimpse, ",
        "or one never evaluated): evaluate its last checkpoint (--checkpoint last)");
  Checkpoint c;
  ReadParams(f, kBestGroup, c);
  if (val_error) *val_error = std::stod(f.Attributes(kBestGroup).at("val_error"));
  return c;
}

}  // namespace glimpse
