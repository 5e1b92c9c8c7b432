// glimpse eval: test (or validation) error of a run's last checkpoint. Last line: test_error=F.
#include <iomanip>
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/train/run_config.h"
#include "src/core/error.h"
#include "src/train/trainer.h"

namespace glimpse::cli {

int RunEval(int argc, char** argv) {
  po::options_description desc("eval options");
  desc.add_options()("help,h", "show this help")(
      "run", po::value<std::string>()->required(), "run file (HDF5) to evaluate")(
      "split", po::value<std::string>()->default_value("test"), "test|val")(
      "samples", po::value<int>()->default_value(1),
      "M = 1: the policy mean; M > 1: average the class probabilities of M sampled episodes")(
      "data-dir", po::value<std::string>(), "data folder, if not the one the run was trained with")(
      "threads", po::value<int>(), "threads (default: as trained; see train --parallel)");
  po::variables_map vm;
  if (!ParseOrHelp(argc, argv, desc, vm, "glimpse eval --run RUN.h5 [--split test|val] [--samples M]"))
    return 0;
  const std::string split_name = vm["split"].as<std::string>();
  Check(split_name == "test" || split_name == "val", "--split: expected test or val, found '", split_name, "'");
  const int samples = vm["samples"].as<int>();
  CheckRange(samples, 1, 1024, "--samples");
  const RunFile file(vm["run"].as<std::string>(), RunFile::Mode::kReadOnly);
  ExperimentConfig cfg = ConfigFromRun(file);
  if (vm.count("data-dir")) cfg.data_dir = vm["data-dir"].as<std::string>();
  if (vm.count("threads")) cfg.threads = vm["threads"].as<int>();
  Trainer trainer(cfg, nullptr, false);
  trainer.LoadWeights(file);
  const Split split = ParseSplit(split_name);
  const EvalResult r = trainer.Evaluate(split, samples, 1 << 30);
  std::cout << file.path() << ": " << r.images << " " << split_name << " images, "
            << (samples == 1 ? std::string("policy mean (M = 1)")
                             : "class probabilities averaged over M = " + std::to_string(samples) +
                                   " sampled episodes (seeded, reproducible)")
            << "\n"
            << split_name << "_error=" << std::defaultfloat << std::setprecision(6) << r.error << "\n";
  return 0;
}

}  // namespace glimpse::cli
