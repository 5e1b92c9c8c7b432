// The glimpse subcommands. Each lives in its own cmd_*.cpp and parses only its own options
// (Boost.Program_options); all option parsing in glimpse happens in src/cli.
#pragma once

#include <string>
#include <vector>

namespace glimpse::cli {

struct Command {
  std::string name;
  std::string summary;
  int (*run)(int argc, char** argv);  // argv[0] is the subcommand name
};

// Explicit registration: add a line here and in commands.cpp for a new subcommand.
int RunInfo(int argc, char** argv);
int RunRender(int argc, char** argv);
int RunBench(int argc, char** argv);
int RunTrain(int argc, char** argv);
int RunEval(int argc, char** argv);
int RunSummarize(int argc, char** argv);
int RunSlim(int argc, char** argv);
int RunVerify(int argc, char** argv);

const std::vector<Command>& Commands();

}  // namespace glimpse::cli
