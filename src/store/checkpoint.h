// Checkpoints inside the run file (docs/run_file.md): parameters with their name/offset/shape
// table, optimizer state, every Rng stream, the step, and the lengths every series had, so that a
// resumed run drops rows written after the checkpoint and continues exactly as if never stopped.
//
// Two slots are reused in place, so the file does not grow per epoch. A save writes the spare slot,
// marks it complete, then swaps the names so that /checkpoint is the new one; LoadCheckpoint takes
// the complete slot with the highest step. (Crash safety of the file as a whole comes from
// RunFile::Commit; the caller commits after saving.)
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/core/params.h"
#include "src/core/rng.h"
#include "src/store/run_file.h"

namespace glimpse {

struct Checkpoint {
  std::int64_t step = 0;   // updates done
  std::int64_t epoch = 0;  // epochs completed
  std::vector<float> params;
  std::vector<ParamInfo> table;
  std::map<std::string, std::vector<float>> optimizer;  // state buffers by name
  std::int64_t optimizer_steps = 0;
  std::map<std::string, Rng::State> rngs;
  std::map<std::string, std::int64_t> lengths;  // series group or block dataset -> length
  std::map<std::string, double> scalars;        // e.g. wall time so far
};

void SaveCheckpoint(RunFile& file, const Checkpoint& c);
bool HasCheckpoint(const RunFile& file);
// Epochs the run has completed: its checkpoint's epoch; for a run file written by another framework
// (no checkpoint, the root attribute "epochs_done": glimpse.runs.write_run) that attribute; else 0.
std::int64_t EpochsDone(const RunFile& file);
// The group of the checkpoint LoadCheckpoint reads ("" if none), and every checkpoint group name.
std::string CheckpointGroup(const RunFile& file);
const std::vector<std::string>& CheckpointGroups();
// Error if there is none, or if a part whose digest is stored (the parameters, each optimizer
// buffer) reads back with another digest: the message names the file and the part.
Checkpoint LoadCheckpoint(const RunFile& file);

// The best-by-validation checkpoint, beside the last one: group "/best" with the parameters (and
// their digest), step, epoch and the validation error that chose it; written at each evaluation that
// lowers the validation error. No optimizer state: it is for evaluation, not for resuming.
inline constexpr const char* kBestGroup = "/best";
void SaveBestCheckpoint(RunFile& file, const Checkpoint& params, double val_error);
bool HasBestCheckpoint(const RunFile& file);
// Error naming the file when it has none or its digest does not match; *val_error if not null.
Checkpoint LoadBestCheckpoint(const RunFile& file, double* val_error = nullptr);

// The test split's answers at the evaluation that chose "/best" (M = 1), so two runs on the same test
// canvases compare image by image without their parameters (scripts/results.py --paired): group
// "/best_test" with int32 "labels" and "answers", one per test image in split order, and attribute
// "epoch", that evaluation's epoch. Written beside each new best that had a test pass; a new best
// without one (--test-every) sets "epoch" to "none", so no answers ever stand for another evaluation.
inline constexpr const char* kBestTestGroup = "/best_test";
void SaveBestTestAnswers(RunFile& file, std::int64_t epoch, const std::vector<std::int32_t>& labels,
                         const std::vector<std::int32_t>& answers);
void MarkBestTestAnswersStale(RunFile& file);

// The digest stored beside a checkpoint's parameters and optimizer buffers, as the slot's attribute
// "digest:PART" (PART = params, optimizer/NAME): "crc32:" and the CRC-32 (zlib) of the raw
// little-endian bytes, in 8 hex digits. Python: "crc32:%08x" % zlib.crc32(array.tobytes()).
std::string DigestOf(const void* data, std::size_t bytes);
// Error naming the file, slot and part when `data` does not match the stored digest of `part`;
// nothing when no digest is stored (a file from before digests).
void CheckDigest(const RunFile& file, const std::string& slot, const std::string& part, const void* data,
                 std::size_t bytes);

}  // namespace glimpse
