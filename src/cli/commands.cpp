#include "src/cli/commands.h"

namespace glimpse::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"info", "print version, build and BLAS threads, and summarise a data set (a smoke run)",
       RunInfo},
      {"render", "write a PNG grid of task samples", RunRender},
      {"bench", "measure throughput; last line images_per_s=F", RunBench},
  };
  return commands;
}

}  // namespace glimpse::cli
