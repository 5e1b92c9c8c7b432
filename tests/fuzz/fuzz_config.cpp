// libFuzzer target: any config file text is parsed into an ExperimentConfig and validated, or
// rejected with a Program_options error or glimpse::Error; it never crashes.
#include <boost/program_options.hpp>
#include <cstdint>
#include <sstream>
#include <string>

#include "src/cli/config_options.h"
#include "src/core/error.h"
#include "src/train/config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace po = boost::program_options;
  static const po::options_description desc = glimpse::cli::ConfigDescription();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  glimpse::ExperimentConfig cfg;
  try {
    po::variables_map vm;
    po::store(po::parse_config_file(in, desc), vm);
    po::notify(vm);
    glimpse::cli::ApplyGiven(vm, cfg);
    glimpse::Validate(cfg);
    // A valid config survives the round trip through the run file's key-value form.
    glimpse::ExperimentConfig back;
    glimpse::ApplyKeyValues(back, glimpse::ToKeyValues(cfg));
    if (glimpse::ToKeyValues(back) != glimpse::ToKeyValues(cfg)) __builtin_trap();
  } catch (const po::error&) {
  } catch (const glimpse::Error&) {
  }
  return 0;
}
