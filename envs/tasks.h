// The registered tasks of --env: each a Task (task.h) with its facts; one declaration and one
// line each in tasks.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "envs/dataset.h"
#include "envs/task.h"
#include "src/core/registry.h"

namespace glimpse {

struct TaskKind : KindInfo {
  int height = 0, width = 0;  // canvas, pixels
  int classes = 10;           // answers
  int objects = 1;            // digits per canvas (Task::objects)
  std::string agent;          // the registered agent that answers it by default (src/train/agent.h)
  // Its samples carry a query (SampleInfo::query) that the answer depends on, and its items sit in fixed
  // slots (strip5): only an agent that reads queries answers it, and its canvas may not move.
  bool query = false;
  // The task over a loaded data set (which must outlive it), fixed by the seed.
  std::function<std::unique_ptr<Task>(const DigitDataset& data, std::uint64_t seed)> make;
};

const Registry<TaskKind>& Tasks();

}  // namespace glimpse
