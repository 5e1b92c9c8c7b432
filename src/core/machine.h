// The machine a leg of a run ran on, stored in its /provenance (docs/run_file.md). The same
// seed, commit and thread count give the same run on one machine; on another CPU OpenBLAS can pick
// other kernels and round differently, so a run's trajectory can differ (frontier README: cluttered100's
// LSTM seed 3 on two machines).
#pragma once

#include <string>

namespace glimpse {

// The first "model name" of /proc/cpuinfo ("Intel(R) Xeon(R) Processor @ 2.50GHz"); "unknown" where
// there is none (not Linux, or an ARM cpuinfo without the field).
std::string CpuModel();
// The parse of a cpuinfo text, for tests: the value after the colon, surrounding blanks trimmed.
std::string CpuModelFrom(const std::string& cpuinfo);
// Resident memory of this process in MB (VmRSS from /proc/self/status; 0 where unavailable).
double ResidentMb();

}  // namespace glimpse
