#include "src/core/version.h"

#include "glimpse_commit.h"  // generated at build time by cmake/source_commit.cmake

namespace glimpse {
const char* Version() { return GLIMPSE_VERSION; }
const char* SourceCommit() { return GLIMPSE_COMMIT; }
}  // namespace glimpse
