// glimpse verify: whether run files are whole (src/train/verify.h). One line per file, "ok" or the
// problems found; exit 0 when every file is whole, 1 otherwise.
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/train/verify.h"

namespace glimpse::cli {

int RunVerify(int argc, char** argv) {
  po::options_description desc("verify options");
  desc.add_options()("help,h", "show this help")("runs", po::value<std::vector<std::string>>()->required(),
                                                 "run files to check");
  po::positional_options_description pos;
  pos.add("runs", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(desc).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: glimpse verify RUN.h5 [RUN.h5 ...]\n\nChecks every checksum of each run file (its HDF5 "
                 "metadata and data), the digests of its checkpoints, its stored configuration and the lengths of "
                 "its series.\nExit 0 when every file is whole, 1 otherwise.\n\n"
              << desc << "\n";
    return 0;
  }
  po::notify(vm);
  int damaged = 0;
  for (const std::string& run : vm["runs"].as<std::vector<std::string>>()) {
    const std::vector<std::string> problems = VerifyRun(run);
    if (problems.empty()) {
      std::cout << run << ": ok\n";
      continue;
    }
    ++damaged;
    std::cout << run << ": DAMAGED or unprotected (" << problems.size() << " problem"
              << (problems.size() > 1 ? "s" : "") << ")\n";
    for (const auto& p : problems) std::cout << "  " << p << "\n";
  }
  const auto total = vm["runs"].as<std::vector<std::string>>().size();
  std::cout << total - damaged << " of " << total << " run files whole\n";
  return damaged == 0 ? 0 : 1;
}

}  // namespace glimpse::cli
