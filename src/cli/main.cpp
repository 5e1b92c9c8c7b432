// glimpse: recurrent visual attention trained with reinforcement learning.
// main only dispatches to a subcommand and turns errors into a message and a non-zero exit.
#include <boost/program_options/errors.hpp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>

#include "src/cli/commands.h"
#include "src/core/error.h"
#include "src/core/version.h"
#include "src/store/run_file.h"

namespace {

void PrintUsage(std::ostream& os) {
  os << "usage: glimpse <command> [options]      (glimpse <command> --help for its options)\n\n"
        "commands:\n";
  for (const auto& c : glimpse::cli::Commands())
    os << "  " << c.name << std::string(c.name.size() < 8 ? 8 - c.name.size() : 1, ' ') << c.summary << "\n";
  os << "\n  --version  print the version and the source commit\n";
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) must fail a write with an error, not kill the process.
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    PrintUsage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << "glimpse " << glimpse::Version() << " (commit " << glimpse::SourceCommit() << ")\n";
    return 0;
  }
  for (const auto& c : glimpse::cli::Commands()) {
    if (c.name != argv[1]) continue;
    int rc = 1;
    try {
      rc = c.run(argc - 1, argv + 1);
    } catch (const boost::program_options::error& e) {
      std::cerr << "glimpse " << c.name << ": " << e.what() << " (see glimpse " << c.name << " --help)\n";
      rc = 2;
    } catch (const std::bad_alloc&) {
      std::cerr << "glimpse " << c.name << ": error: out of memory (options too large for this machine? "
                << "glimpse " << c.name << " --help lists their ranges)\n";
    } catch (const std::exception& e) {
      std::cerr << "glimpse " << c.name << ": error: " << e.what() << "\n";
    }
    if (glimpse::RunFile::AbandonedAny()) {  // HDF5's clean-up at exit would crash on it (run_file.h)
      std::cout.flush();
      std::cerr.flush();
      std::_Exit(rc);
    }
    return rc;
  }
  std::cerr << "glimpse: unknown command '" << argv[1] << "'\n\n";
  PrintUsage(std::cerr);
  return 2;
}
