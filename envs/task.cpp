#include "envs/task.h"

#include "src/core/error.h"

namespace glimpse {

Split ParseSplit(const std::string& name) {
  if (name == "train") return Split::kTrain;
  if (name == "val") return Split::kVal;
  if (name == "test") return Split::kTest;
  Fail("unknown split '", name, "': expected train, val or test");
}

const char* SplitName(Split s) { return s == Split::kTrain ? "train" : s == Split::kVal ? "val" : "test"; }

}  // namespace glimpse
