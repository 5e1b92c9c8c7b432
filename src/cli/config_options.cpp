#include "src/cli/config_options.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "src/core/error.h"

namespace glimpse::cli {

po::options_description ConfigDescription() {
  const ExperimentConfig defaults;
  po::options_description all("experiment options (also accepted in a --config INI file)", 100, 50);
  for (const std::string& group : ConfigGroups()) {
    po::options_description g(group, 100, 50);
    for (const auto& s : ConfigOptions()) {
      if (s.group != group) continue;
      const std::string def = s.get(defaults);
      const std::string help = s.help + " [default=" + (def.empty() ? "\"\"" : def) + "]";
      if (s.is_flag)
        g.add_options()(s.name.c_str(), po::value<std::string>()->implicit_value("true"), help.c_str());
      else
        g.add_options()(s.name.c_str(), po::value<std::string>(), help.c_str());
    }
    all.add(g);
  }
  return all;
}

void ApplyGiven(const po::variables_map& vm, ExperimentConfig& config) {
  for (const auto& s : ConfigOptions())
    if (vm.count(s.name)) s.set(config, vm[s.name].as<std::string>());
}

bool ParseWithConfig(int argc, char** argv, const po::options_description& extra, const std::string& usage,
                     po::variables_map& vm, ExperimentConfig& config) {
  const po::options_description cfg = ConfigDescription();
  po::options_description all(100, 50);
  all.add(extra).add(cfg);
  po::store(po::command_line_parser(argc, argv).options(all).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: " << usage << "\n\n" << all << "\n";
    return false;
  }
  if (vm.count("config")) {
    const std::string path = vm["config"].as<std::string>();
    std::error_code ec;
    Check(!std::filesystem::is_directory(path, ec), "--config '", path, "' is a folder; it takes an INI file",
          std::filesystem::exists(std::filesystem::path(path) / "config.ini", ec)
              ? " (" + (std::filesystem::path(path) / "config.ini").string() + "?)"
              : std::string());
    std::ifstream f(path);
    Check(static_cast<bool>(f), "cannot open config file '", path, "'");
    // Stored after the command line, so command-line values win.
    po::store(po::parse_config_file(f, cfg), vm);
  }
  po::notify(vm);
  ApplyGiven(vm, config);
  return true;
}

}  // namespace glimpse::cli
