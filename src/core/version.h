// The version and the source commit this binary was built from ("-dirty" with uncommitted changes).
#pragma once

namespace glimpse {
const char* Version();
const char* SourceCommit();
}  // namespace glimpse
