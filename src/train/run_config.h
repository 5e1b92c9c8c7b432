// Reading a run file's stored configuration back into an ExperimentConfig (resume, eval).
#pragma once

#include "src/store/run_file.h"
#include "src/store/run_rules.h"
#include "src/train/config.h"

namespace glimpse {

// The options stored as root attributes of a run file; other attributes are ignored. An option
// added after a file was written takes the value that reproduces how that file was made, not
// today's default (AbsentOptionValues, src/store/run_rules.h: --denormals keep).
inline ExperimentConfig ConfigFromRun(const RunFile& file) {
  ExperimentConfig cfg;
  const auto attrs = file.Attributes("/");
  std::map<std::string, std::string> kv = AbsentOptionValues();
  for (const auto& spec : ConfigOptions())
    if (attrs.count(spec.name)) kv[spec.name] = attrs.at(spec.name);
  ApplyKeyValues(cfg, kv);
  return cfg;
}

}  // namespace glimpse
