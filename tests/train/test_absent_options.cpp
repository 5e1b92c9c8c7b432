// AbsentOptionValues (src/store/run_rules.h): the value an option takes in a run file written before
// it existed. It must name every option some committed run file lacks, and give today's default but
// where the option changed what earlier builds did (--denormals: they kept subnormals).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "src/store/run_file.h"
#include "src/store/run_rules.h"
#include "src/train/config.h"
#include "tests/cli/cli_helpers.h"

using namespace glimpse;

TEST_CASE("AbsentOptionValues are today's defaults but for --denormals", "[train][config]") {
  const auto defaults = ToKeyValues(ExperimentConfig{});
  for (const auto& [name, value] : AbsentOptionValues()) {
    INFO("option --" << name);
    REQUIRE(defaults.count(name) == 1);                           // a real option, stored by today's trainer
    CHECK((IsConfigurationOption(name) || name == "denormals"));  // how a run was run: never pools apart
    if (name == "denormals")
      CHECK((value == "keep" && defaults.at(name) == "flush"));
    else
      CHECK(value == defaults.at(name));
  }
}

TEST_CASE("Every option a committed run file lacks has its absent value", "[train][config][results]") {
  const std::vector<std::string> runs = test::CommittedRunFiles();
  if (runs.empty()) WARN("no git checkout: no committed run files to check");
  int read = 0;
  for (const std::string& rel : runs) {
    std::map<std::string, std::string> attrs;
    try {
      attrs = RunFile(std::string(GLIMPSE_SOURCE_DIR) + "/" + rel, RunFile::Mode::kReadOnly).Attributes("/");
    } catch (const std::exception&) {
      continue;  // results/damage keeps files that do not open, on purpose
    }
    if (!attrs.count("env")) continue;  // not a run file
    ++read;
    for (const OptionSpec& spec : ConfigOptions()) {
      if (attrs.count(spec.name) || (!IsConfigurationOption(spec.name) && spec.name != "denormals")) continue;
      INFO(rel << " lacks --" << spec.name);
      CHECK(AbsentOptionValues().count(spec.name) == 1);
    }
  }
  if (!runs.empty()) CHECK(read >= 100);
}
