// libFuzzer target: the run-file reader (what eval, --resume, slim and verify read) must accept or
// refuse any bytes with glimpse::Error, never crash or hang. The input is written to a file and read
// as eval reads it (configuration, checkpoint with its digests) and as verify does (every object).
// Checksums are required: files of the earliest format (older glimpse runs, no checksums) go to HDF5
// unchecked, and HDF5 1.10.8 itself crashes on some malformed ones (this target found one in
// H5G__dense_get_name_by_idx); glimpse cannot protect those beyond refusing them.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "src/core/error.h"
#include "src/store/checkpoint.h"
#include "src/store/run_file.h"
#include "src/train/run_config.h"
#include "src/train/verify.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  glimpse::RunFile::RequireChecksums(true);
  static const std::string path = "/tmp/glimpse_fuzz_runfile_" + std::to_string(::getpid()) + ".h5";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const glimpse::RunFile file(path, glimpse::RunFile::Mode::kReadOnly);
    glimpse::Validate(glimpse::ConfigFromRun(file));
    const glimpse::Checkpoint c = glimpse::LoadCheckpoint(file);
    for (const auto& p : c.table)
      if (p.offset + p.size > c.params.size()) break;  // the trainer checks this against its model
  } catch (const glimpse::Error&) {
  }
  glimpse::VerifyRun(path);  // reports problems as lines; never throws
  std::remove(path.c_str());
  return 0;
}
