// The registered tasks: one line per kind.
#include "envs/tasks.h"

namespace glimpse {

const Registry<TaskKind>& Tasks() {
  static const Registry<TaskKind> registry("env", {
      Mnist28Kind(),
      Translated60Kind(),
      Cluttered60Kind(),
      Cluttered100Kind(),
      Strip5Kind(),
  });
  return registry;
}

}  // namespace glimpse
