#include "src/cli/commands.h"

namespace glimpse::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"train", "train a model into an HDF5 run file, or --resume one", RunTrain},
      {"eval", "test or validation error of a run; last line test_error=F", RunEval},
      {"info", "print version, build and BLAS threads, and summarise a data set (a smoke run)", RunInfo},
      {"summarize", "a markdown table row per run file (errors, speed, gradient variance)", RunSummarize},
      {"slim", "a small copy of a run (no optimizer state) to commit; evaluates and plots, cannot resume", RunSlim},
      {"verify", "check that run files are whole: checksums, digests, configuration, series", RunVerify},
      {"render", "write a PNG grid of task samples", RunRender},
      {"bench", "measure throughput; last line images_per_s=F", RunBench},
  };
  return commands;
}

}  // namespace glimpse::cli
