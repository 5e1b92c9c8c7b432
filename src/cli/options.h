// Helpers shared by the subcommands: parsing with a clear error, and --help output.
#pragma once

#include <boost/program_options.hpp>
#include <iostream>
#include <string>

namespace glimpse::cli {

namespace po = boost::program_options;

// Parses argv (after the subcommand name) into vm. Returns false if --help was given (usage already
// printed). Unknown options and bad values throw po::error, which main reports.
inline bool ParseOrHelp(int argc, char** argv, const po::options_description& desc, po::variables_map& vm,
                        const std::string& usage) {
  po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: " << usage << "\n\n" << desc << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

}  // namespace glimpse::cli
