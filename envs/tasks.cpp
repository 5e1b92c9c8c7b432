// The registered tasks: one line per kind.
#include "envs/tasks.h"

namespace glimpse {

// The kinds, each defined beside its task.
TaskKind Mnist28Kind();        // image_task.cpp
TaskKind Translated60Kind();   // image_task.cpp
TaskKind Cluttered60Kind();    // image_task.cpp
TaskKind Cluttered100Kind();   // image_task.cpp
TaskKind Translated100Kind();  // image_task.cpp
TaskKind Pairs100Kind();       // image_task.cpp
TaskKind Sum100Kind();         // image_task.cpp
TaskKind Strip5Kind();         // strip5.cpp

const Registry<TaskKind>& Tasks() {
  static const Registry<TaskKind> registry("env", {
                                                      Mnist28Kind(),
                                                      Translated60Kind(),
                                                      Cluttered60Kind(),
                                                      Cluttered100Kind(),
                                                      Translated100Kind(),
                                                      Pairs100Kind(),
                                                      Sum100Kind(),
                                                      Strip5Kind(),
                                                  });
  return registry;
}

}  // namespace glimpse
