#include "src/train/experiment_config.h"

namespace glimpse {

template <class T>
OptionSpec Num(const char* name, const char* group, const char* help, T ExperimentConfig::*f) {
  return {name,
          group,
          help,
          false,
          [f](const ExperimentConfig& c) { return NumberText(c.*f); },
          [f, name](ExperimentConfig& c, const std::string& s) { c.*f = ParseNumber<T>(name, s); }};
}
template OptionSpec Num(const char*, const char*, const char*, int ExperimentConfig::*);
template OptionSpec Num(const char*, const char*, const char*, std::int64_t ExperimentConfig::*);
template OptionSpec Num(const char*, const char*, const char*, std::uint64_t ExperimentConfig::*);
template OptionSpec Num(const char*, const char*, const char*, double ExperimentConfig::*);

OptionSpec Flag(const char* name, const char* group, const char* help, bool ExperimentConfig::*f) {
  return {name,
          group,
          help,
          true,
          [f](const ExperimentConfig& c) { return std::string(c.*f ? "true" : "false"); },
          [f, name](ExperimentConfig& c, const std::string& s) { c.*f = ParseBool(name, s); }};
}

OptionSpec Str(const char* name, const char* group, const char* help, std::string ExperimentConfig::*f) {
  return {name,
          group,
          help,
          false,
          [f](const ExperimentConfig& c) { return c.*f; },
          [f](ExperimentConfig& c, const std::string& s) { c.*f = s; }};
}

}  // namespace glimpse
