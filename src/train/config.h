// The option table and the validation of an ExperimentConfig (src/core/config.h), assembled from the
// general rows and the registries: each axis's selector row lists its registered kinds, and every
// registered kind contributes the option rows it owns and its own validation.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/train/experiment_config.h"

namespace glimpse {

// Every option: the general rows, then each registered kind's own rows (in registration order).
const std::vector<OptionSpec>& ConfigOptions();
// The groups of ConfigOptions, in --help order.
const std::vector<std::string>& ConfigGroups();

// Every option by name, as strings (what a run file stores).
std::map<std::string, std::string> ToKeyValues(const ExperimentConfig& c);
// Sets the options present in kv (unknown names throw Error).
void ApplyKeyValues(ExperimentConfig& c, const std::map<std::string, std::string>& kv);

// Throws Error naming the option and the allowed range for the first impossible value: the
// general checks, then the validation of each selected kind.
void Validate(const ExperimentConfig& c);
// The part of Validate that --train-shift needs (less than the canvas, image tasks only), for a
// command that renders the task without a model (glimpse render).
void ValidateTrainShift(const ExperimentConfig& c);

// One sentence for each kind option set in c that none of c's selected kinds reads (--momentum with
// --optimizer adam), naming the kinds that would read it: such a value is stored in the run file and
// ignored. Assumes Validate(c) passed. Empty when every option given is read.
std::vector<std::string> UnreadKindOptions(const ExperimentConfig& c);

// The data folder of a config: --data-dir if given, else the data set's default folder.
std::string ResolveDataDir(const ExperimentConfig& c);
// --threads resolved: 0 means every core of the machine.
int ResolvedThreads(const ExperimentConfig& c);

}  // namespace glimpse
