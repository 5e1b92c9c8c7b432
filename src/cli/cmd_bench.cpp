// glimpse bench: throughput measurements. Last line: images_per_s=F.
//   --what train: training updates of the configured model (after one warm-up step)
//   --what env:   task generation, images/s for each task (last line: the slowest task)
#include <chrono>
#include <iomanip>
#include <iostream>

#include "envs/image_task.h"
#include "src/cli/commands.h"
#include "src/cli/config_options.h"
#include "src/core/blas.h"
#include "src/core/error.h"
#include "src/train/trainer.h"

namespace glimpse::cli {
namespace {

double Seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Renders `images` training images of the task in batches of B; returns images/s.
double BenchTask(const ImageTask& task, int images, int batch) {
  std::vector<float> buf(static_cast<std::size_t>(batch) * task.pixels());
  const auto t0 = std::chrono::steady_clock::now();
  for (int done = 0; done < images; done += batch)
    for (int b = 0; b < batch; ++b)
      task.Render(Split::kTrain, (done + b) % task.size(Split::kTrain), 0,
                  buf.data() + static_cast<std::size_t>(b) * task.pixels());
  return images / Seconds(t0, std::chrono::steady_clock::now());
}

}  // namespace

int RunBench(int argc, char** argv) {
  po::options_description desc("bench options");
  desc.add_options()("help,h", "show this help")(
      "what", po::value<std::string>()->default_value("train"),
      "train: training images/s of the configured model; env: task generation speed")(
      "images", po::value<int>()->default_value(20000), "images to process")(
      "profile", "train: also print the time per phase (task, sensor, forward, loss, backward, optimizer)")(
      "config", po::value<std::string>(), "INI file with experiment options");
  po::variables_map vm;
  ExperimentConfig cfg;
  if (!ParseWithConfig(argc, argv, desc, "glimpse bench [--what train|env] [--images N] [experiment options]", vm, cfg))
    return 0;
  const std::string what = vm["what"].as<std::string>();
  const int images = vm["images"].as<int>();
  CheckRange(images, 1, 1 << 30, "option --images");
  Check(what == "env" || what == "train", "option --what: expected train or env, found '", what, "'");
  if (what == "train") {
    Trainer trainer(cfg, nullptr, false);
    const int steps = std::max(1, images / cfg.batch);
    Trainer::Profile prof;
    const double rate = trainer.Bench(steps, vm.count("profile") ? &prof : nullptr);
    if (vm.count("profile")) {
      const double total = prof.task + prof.forward + prof.loss + prof.backward + prof.optimizer;
      auto line = [&](const char* name, double sec) {
        std::cout << "  " << std::left << std::setw(22) << name << std::right << std::fixed << std::setprecision(1)
                  << std::setw(8) << 1e3 * sec / steps << " ms/step " << std::setw(6) << 100 * sec / total << "%\n";
      };
      std::cout << "profile (" << steps << " steps, threads " << GetBlasThreads() << "):\n";
      line("task generation", prof.task);
      line("forward (all)", prof.forward);
      line("  of which sensor", prof.sensor);
      line("loss / estimator", prof.loss);
      line("backward", prof.backward);
      line("optimizer", prof.optimizer);
    }
    std::cout << cfg.env << ", " << cfg.glimpses << " glimpses of " << cfg.scales << " x " << cfg.patch
              << "x" << cfg.patch << ", batch " << cfg.batch << ", " << cfg.samples << " sample(s), core "
              << cfg.core << ", " << steps << " steps\n";
    std::cout << "images_per_s=" << std::fixed << std::setprecision(0) << rate << "\n";
    return 0;
  }
  const DigitDataset data = LoadDigitDataset(ResolveDataDir(cfg));
  double slowest = 0;
  for (const auto& name : TaskNames()) {
    const ImageTask task(TaskByName(name), data, cfg.seed);
    const double rate = BenchTask(task, images, cfg.batch);
    const double us_per_batch = 1e6 * cfg.batch / rate;
    std::cout << std::left << std::setw(14) << name << " images_per_s=" << std::fixed
              << std::setprecision(0) << rate << "  (" << std::setprecision(1) << us_per_batch
              << " us per batch of " << cfg.batch << ")\n";
    slowest = slowest == 0 ? rate : std::min(slowest, rate);
  }
  std::cout << "images_per_s=" << std::fixed << std::setprecision(0) << slowest << "\n";
  return 0;
}

}  // namespace glimpse::cli
