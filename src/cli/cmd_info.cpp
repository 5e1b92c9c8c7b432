// glimpse info: version, build, CPU, BLAS build and threads, and a summary of a data set. The smoke run of setup.
#include <iostream>
#include <thread>

#include "envs/dataset.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/core/blas.h"
#include "src/core/machine.h"
#include "src/core/usable_cores.h"
#include "src/core/version.h"

namespace glimpse::cli {

int RunInfo(int argc, char** argv) {
  po::options_description desc("info options");
  desc.add_options()("help,h", "show this help")("dataset", po::value<std::string>()->default_value("mnist"),
                                                 "mnist|fashion")(
      "data-dir", po::value<std::string>()->default_value(""),
      "folder with the four IDX files (default: data/mnist for mnist, "
      "/usr/share/datasets/fashion-mnist for fashion)");
  po::variables_map vm;
  if (!ParseOrHelp(argc, argv, desc, vm, "glimpse info [options]")) return 0;
  std::cout << "glimpse " << Version() << " (commit " << SourceCommit() << ")\n";
  std::cout << "cpu=" << CpuModel() << "\n";
  std::cout << "blas=" << BlasBuild() << "\n";
  if (const std::string note = BlasKernelNote(); !note.empty()) std::cout << "note: " << note << "\n";
  std::cout << "blas_threads=" << GetBlasThreads() << "\n";
  std::cout << "usable_cores=" << UsableCores() << " (what --threads 0 uses; CPU affinity " << AffinityCores()
            << " of the machine's " << std::thread::hardware_concurrency() << ", less under a cgroup CPU quota)\n";
  std::string dir = vm["data-dir"].as<std::string>();
  if (dir.empty()) dir = DefaultDataDir(vm["dataset"].as<std::string>());
  const DigitDataset d = LoadDigitDataset(dir);
  std::cout << "data " << dir << ": train " << d.train_images.count << " x " << d.train_images.rows << "x"
            << d.train_images.cols << ", test " << d.test_images.count << "\n";
  return 0;
}

}  // namespace glimpse::cli
