// glimpse eval: test (or validation) error of a run's last (or best-by-validation) checkpoint, recorded
// in the run file (/evaluations); a slim copy (what results/ commits) is left as it is unless --record.
// Last line: test_error=F (val_error=F with --split val). A result that
// cannot be recorded (the writer lock held past --wait, a read-only folder, a full disk) is an error,
// exit 1, found before evaluating where it can be; --no-record evaluates without writing.
// --canvas-seed S draws the split's canvases (digit positions, clutter) from seed S instead of the run's
// seed, with the same digits and weights: how much an error owes to the one fixed draw of its canvases.
#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>

#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/core/error.h"
#include "src/core/version.h"
#include "src/store/writer_lock.h"
#include "src/train/experiment_config.h"
#include "src/train/run_config.h"
#include "src/train/trainer.h"

namespace glimpse::cli {

int RunEval(int argc, char** argv) {
  po::options_description desc("eval options");
  desc.add_options()("help,h", "show this help")("run", po::value<std::string>()->required(),
                                                 "run file (HDF5) to evaluate")(
      "split", po::value<std::string>()->default_value("test"), "test|val")(
      "samples", po::value<int>()->default_value(1),
      "M = 1: the policy mean; M > 1: average the class probabilities of M sampled episodes")(
      "checkpoint", po::value<std::string>()->default_value("last"),
      "last: the last checkpoint | best: the one with the lowest validation error (chosen on validation only; "
      "a run trained with --average keeps its parameter average there, and its training parameters in last)")(
      "data-dir", po::value<std::string>(), "data folder, if not the one the run was trained with")(
      "threads", po::value<int>(), "threads (default: as trained; see train --parallel)")(
      "canvas-seed", po::value<std::string>(),
      "draw the split's canvases (positions, clutter) from this seed instead of the run's (same digits and "
      "weights; M > 1 also samples its episodes from it); recorded as /evaluations/canvas_seed")(
      "predictions", po::value<std::string>(),
      "also write each image's label and answer to this CSV file (index,label,answer), in split order: two "
      "runs evaluated on the same canvases compare image by image (scripts/results.py --paired)")(
      "no-record", "do not append the result to the run file's /evaluations")(
      "record",
      "append it to a slim copy too (the files committed beside results are slim copies, left as they "
      "are by default, so evaluating a checkout's results leaves it clean)")(
      "wait", po::value<double>()->default_value(60),
      "seconds to wait for the run file's writer lock (another eval recording, a training run) before "
      "failing; checked before evaluating and again to record");
  po::variables_map vm;
  if (!ParseOrHelp(argc, argv, desc, vm,
                   "glimpse eval --run RUN.h5 [--split test|val] [--samples M] [--checkpoint last|best]"))
    return 0;
  const std::string split_name = vm["split"].as<std::string>();
  Check(split_name == "test" || split_name == "val", "--split: expected test or val, found '", split_name, "'");
  const int samples = vm["samples"].as<int>();
  CheckRange(samples, 1, 1024, "--samples");
  const std::string which = vm["checkpoint"].as<std::string>();
  Check(which == "last" || which == "best", "--checkpoint: expected last or best, found '", which, "'");
  const std::string path = vm["run"].as<std::string>();
  Check(!(vm.count("record") && vm.count("no-record")), "--record and --no-record: pass one of them");
  // A full run file records by default; a slim copy (what results/ commits) only when asked.
  auto reader = std::make_unique<RunFile>(path, RunFile::Mode::kReadOnly);  // opened (and checked) once
  const bool slim = reader->Attributes("/").count("slim") > 0;
  const bool record = vm.count("record") || (!vm.count("no-record") && !slim);
  const double wait_s = vm["wait"].as<double>();
  Check(std::isfinite(wait_s) && wait_s >= 0 && wait_s <= 86400, "--wait: expected seconds in [0, 86400], found ",
        wait_s);
  const auto unrecordable = [&](const std::string& why) {
    return Format(why, "; pass --no-record to evaluate without recording");
  };
  if (record) {  // fail before the evaluation, not after it, when the result could not be recorded
    try {
      const WriterLock probe(path, wait_s);  // also fails in a read-only folder
    } catch (const Error& e) {
      Fail(unrecordable(e.what()));
    }
  }
  EvalResult r;
  std::int64_t epoch = 0;
  std::string describe;
  std::uint64_t canvas_seed = 0;
  {
    const RunFile& file = *reader;
    ExperimentConfig cfg = ConfigFromRun(file);
    if (vm.count("data-dir")) cfg.data_dir = vm["data-dir"].as<std::string>();
    if (vm.count("threads")) cfg.threads = vm["threads"].as<int>();
    // The task (and the evaluation's sampling stream) is seeded by cfg.seed; the weights come from the file.
    if (vm.count("canvas-seed")) cfg.seed = ParseSeed("canvas-seed", vm["canvas-seed"].as<std::string>());
    canvas_seed = cfg.seed;
    cfg.init_from.clear();  // the weights are this run's checkpoint: a curriculum's start run need not exist
    Trainer trainer(cfg, nullptr, false);
    epoch = trainer.LoadWeights(file, which == "best");
    r = trainer.Evaluate(ParseSplit(split_name), samples, 1 << 30);
    describe = trainer.DescribeEval(samples);
  }
  reader.reset();  // closed before the recording writer replaces the file
  if (vm.count("predictions")) {
    const std::string csv = vm["predictions"].as<std::string>();
    std::ofstream out(csv);
    Check(static_cast<bool>(out), "--predictions: cannot write '", csv, "'");
    out << "index,label,answer\n";
    for (std::size_t i = 0; i < r.labels.size(); ++i) out << i << "," << r.labels[i] << "," << r.answers[i] << "\n";
    out.close();
    Check(static_cast<bool>(out), "--predictions: writing '", csv, "' failed");
  }
  std::cout << path << ": " << which << " checkpoint (epoch " << epoch << "), " << r.images << " " << split_name
            << " images, " << describe << ", M = " << samples
            << (vm.count("canvas-seed") ? ", canvases of seed " + std::to_string(canvas_seed) : std::string()) << "\n";
  if (record) {  // every number quoted can be read back from the file; a failure to record is an error
    try {
      RunFile file(path, RunFile::Mode::kReadWrite, wait_s);
      const std::size_t row = file.SeriesLength("/evaluations");
      file.Append("/evaluations", {{"unix_time", static_cast<double>(std::time(nullptr))},
                                   {"split", split_name == "test" ? 1.0 : 0.0},
                                   {"best", which == "best" ? 1.0 : 0.0},
                                   {"epoch", static_cast<double>(epoch)},
                                   {"samples", static_cast<double>(samples)},
                                   {"images", static_cast<double>(r.images)},
                                   {"error", r.error},
                                   {"canvas_seed", static_cast<double>(canvas_seed)}});
      file.SetAttribute("/evaluations", "commit_" + std::to_string(row), SourceCommit());
      file.Commit();
      std::cout << "recorded in " << path << ": /evaluations row " << row << "\n";
    } catch (const Error& e) {
      Fail(unrecordable(Format("the result (", split_name, "_error=", r.error, ") was not recorded: ", e.what())));
    }
  } else if (slim && !vm.count("no-record")) {
    std::cout << "not recorded: '" << path << "' is a slim copy (glimpse slim), left as it is; --record appends "
              << "the result to its /evaluations\n";
  }
  std::cout << split_name << "_error=" << std::defaultfloat << std::setprecision(6) << r.error << "\n";
  return 0;
}

}  // namespace glimpse::cli
