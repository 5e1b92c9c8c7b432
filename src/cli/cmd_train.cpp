// glimpse train: train a model from a config (file and/or options) into one HDF5 run file, or
// continue one with --resume.
#include <iomanip>
#include <iostream>
#include <iterator>

#include "src/cli/commands.h"
#include "src/cli/config_options.h"
#include "src/core/blas.h"
#include "src/core/error.h"
#include "src/train/run_config.h"
#include "src/train/trainer.h"

namespace glimpse::cli {
namespace {

// Options that may change when a run is resumed; everything else defines the run. `stored`: the new
// value holds for the rest of the run, not only this leg, so it is stored over the old one.
struct Resumable {
  const char* name;
  bool stored;
};
constexpr Resumable kResumable[] = {{"epochs", true},    {"threads", false},  {"parallel", false}, {"log-every", false},
                                    {"data-dir", false}, {"denormals", true}, {"test-every", true}};

const Resumable* FindResumable(const std::string& name) {
  for (const Resumable& r : kResumable)
    if (name == r.name) return &r;
  return nullptr;
}

// "--epochs, --threads, ... and --denormals", for the message that refuses any other option.
std::string ResumableNames() {
  std::string s;
  const std::size_t n = std::size(kResumable);
  for (std::size_t i = 0; i < n; ++i)
    s += std::string(i == 0 ? "" : i + 1 == n ? " and " : ", ") + "--" + kResumable[i].name;
  return s;
}

// The test error of the last parameters (with --average, of the last parameter average); with
// --test-every 0 (a screen, chosen on validation alone) or --hide-test their validation error instead.
void PrintFinal(Trainer& t, bool test_evaluated, bool hide_test) {
  const bool test = test_evaluated && !hide_test;
  const Split split = test ? Split::kTest : Split::kVal;
  const EvalResult r = t.averaging() ? t.EvaluateAverage(split, 1, 1 << 30) : t.Evaluate(split, 1, 1 << 30);
  std::cout << std::defaultfloat << std::setprecision(6) << "final: " << r.images << (test ? " test" : " validation")
            << " images, " << t.DescribeEval(1) << (t.averaging() ? ", parameter average" : "") << " (M = 1"
            << (test             ? ")"
                : test_evaluated ? "; the test errors are in the run file, not shown: --hide-test)"
                                 : "; the test split is not evaluated: --test-every 0)")
            << "\n"
            << (test ? "test_error=" : "val_error=") << r.error << "\n";
}

}  // namespace

int RunTrain(int argc, char** argv) {
  po::options_description desc("train options");
  desc.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                 "INI file of experiment options (command-line values win)")(
      "out", po::value<std::string>(), "run file to write (HDF5)")("force", "overwrite an existing --out")(
      "resume", po::value<std::string>(), "continue this run file from its last checkpoint")(
      "hide-test",
      "print no test error (the epoch lines and the final line give validation errors; the run file stores the "
      "test evaluations as ever): a row's test error is read once, when the row is finished. scripts/sweep sets it");
  po::variables_map vm;
  ExperimentConfig cfg;
  if (!ParseWithConfig(
          argc, argv, desc,
          "glimpse train [--config FILE.ini] --out RUN.h5 [--force] [--hide-test] [options]\n"
          "       glimpse train --resume RUN.h5 [--hide-test] [--epochs E] [--threads N] [--denormals flush|keep]",
          vm, cfg))
    return 0;

  if (vm.count("resume")) {
    Check(!vm.count("out") && !vm.count("config"), "--resume continues a run with its own configuration; ",
          "do not combine it with --out or --config");
    const std::string path = vm["resume"].as<std::string>();
    RunFile file(path, RunFile::Mode::kReadWrite);
    Check(!file.Attributes("/").count("slim"), "'", path, "' is a copy made by glimpse slim, without optimizer ",
          "state; resume the full run file it was made from");
    ExperimentConfig stored = ConfigFromRun(file);
    for (const auto& spec : ConfigOptions()) {
      if (!vm.count(spec.name)) continue;
      Check(FindResumable(spec.name) != nullptr, "--", spec.name, " cannot change when resuming (only ",
            ResumableNames(), " can); start a new run with --out instead");
      spec.set(stored, vm[spec.name].as<std::string>());
    }
    Validate(stored);  // before a changed value is stored in the file
    for (const auto& spec : ConfigOptions())
      if (vm.count(spec.name) && FindResumable(spec.name)->stored) file.SetAttribute("/", spec.name, spec.get(stored));
    Trainer trainer(stored, &file, /*resume=*/true);
    if (vm.count("hide-test")) trainer.hide_test_in_messages();
    std::cout << "resuming '" << path << "' at epoch " << trainer.epoch() << ", step " << trainer.step() << "\n";
    trainer.Run();
    PrintFinal(trainer, stored.test_every > 0, vm.count("hide-test") > 0);
    return 0;
  }

  Check(vm.count("out") == 1, "--out RUN.h5 is required (or --resume RUN.h5)");
  const std::string out = vm["out"].as<std::string>();
  Validate(cfg);  // before any file is created
  for (const std::string& w : UnreadKindOptions(cfg)) std::cerr << "warning: " << w << "\n";
  if (const std::string note = BlasKernelNote(); !note.empty()) std::cerr << "note: " << note << "\n";
  RunFile file(out, vm.count("force") ? RunFile::Mode::kOverwrite : RunFile::Mode::kCreate);
  std::unique_ptr<Trainer> trainer;
  try {
    trainer = std::make_unique<Trainer>(cfg, &file, /*resume=*/false);
  } catch (...) {
    file.Discard();  // nothing was trained: leave no half-made run file behind
    throw;
  }
  if (vm.count("hide-test")) trainer->hide_test_in_messages();
  std::cout << "writing '" << out << "'\n";
  trainer->Run();
  PrintFinal(*trainer, cfg.test_every > 0, vm.count("hide-test") > 0);
  return 0;
}

}  // namespace glimpse::cli
