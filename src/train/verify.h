// Whether a run file is whole (glimpse verify): every checksum HDF5 keeps, the digests of the
// checkpoints, the stored configuration, and the consistency of the series.
#pragma once

#include <string>
#include <vector>

namespace glimpse {

// One line per problem found in the run file at `path`, each naming the damaged part; empty when the
// file is whole and protected (checksummed format, digests present).
std::vector<std::string> VerifyRun(const std::string& path);

}  // namespace glimpse
