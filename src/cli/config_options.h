// ExperimentConfig <-> Program_options: the command line and an INI config file, with command-line
// values overriding the file (Program_options keeps the first value stored, so the command line is
// stored first).
#pragma once

#include <string>

#include "src/cli/options.h"
#include "src/train/config.h"

namespace glimpse::cli {

// One options group per config group (task, sensor, ...), each option's help ending with its default.
po::options_description ConfigDescription();

// Parses argv with `extra` (command-specific options) plus the config options; reads --config FILE if
// `extra` declares it and it is given. Returns false after printing help for --help.
bool ParseWithConfig(int argc, char** argv, const po::options_description& extra, const std::string& usage,
                     po::variables_map& vm, ExperimentConfig& config);

// The config options given explicitly in vm, applied to config.
void ApplyGiven(const po::variables_map& vm, ExperimentConfig& config);

}  // namespace glimpse::cli
