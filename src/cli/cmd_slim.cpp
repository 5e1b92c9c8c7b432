// glimpse slim: a small copy of a run for committing next to its results. It keeps the
// configuration, every series, the logged trajectories or attention weights and the last
// checkpoint's parameters, and drops the optimizer state and the spare checkpoint slot (about 80% of
// a run file). The copy evaluates (glimpse eval) and plots; it cannot be resumed. When the best
// checkpoint (/best) holds the same parameters as the last one (same digest: the last evaluation was
// the best), the copy stores them once, /best/params being a hard link to the checkpoint's.
// The source's checkpoint is read and checked against its digests first (a damaged run is refused),
// and the copy is written in the checksummed format (run_file.h) with the parameters' digest, so
// slim also migrates a run file written by an older glimpse. --curves-only keeps no parameters at all
// (a screen's copy, which is summarized and plotted but never evaluated again); its epochs done are
// stored as the root attribute epochs_done. --best-only keeps the curves and the validation-selected
// parameters (/best) but not the last checkpoint's: a row's reported model, which eval --checkpoint
// best evaluates and --init-from starts from, in about half a slim copy (epochs_done as above).
// A file written before the trainer stopped storing logged canvases holds them in
// /trajectories/image (K, H, W); the copy leaves them out when the run's task renders exactly those
// K canvases again as its first K test samples (what glimpse.runs.trajectory_images then does), and
// keeps them, saying why, when it renders others or cannot render them here (no data set).
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "envs/batch.h"
#include "envs/dataset.h"
#include "envs/tasks.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/core/error.h"
#include "src/store/checkpoint.h"
#include "src/store/writer_lock.h"
#include "src/train/run_config.h"

namespace glimpse::cli {
namespace {

constexpr const char* kCanvases = "/trajectories/image";

// Empty when the task of `file`'s configuration renders, as its first K test samples, the canvases
// (K, H, W) and labels stored in /trajectories; otherwise why not.
std::string CanvasesDiffer(const RunFile& file) {
  try {
    std::vector<std::size_t> shape;
    const std::vector<float> stored = file.ReadArray<float>(kCanvases, &shape);
    const std::vector<std::int32_t> labels = file.ReadArray<std::int32_t>("/trajectories/label");
    ExperimentConfig cfg = ConfigFromRun(file);
    if (!cfg.data_dir.empty() && !std::filesystem::is_directory(cfg.data_dir))
      cfg.data_dir.clear();  // another machine's
    const DigitDataset data = LoadDigitDataset(ResolveDataDir(cfg));
    const std::unique_ptr<Task> task = Tasks().Get(cfg.env).make(data, cfg.seed);
    if (shape.size() != 3 || shape[0] != labels.size() || static_cast<int>(shape[1]) != task->height() ||
        static_cast<int>(shape[2]) != task->width() || static_cast<std::int64_t>(shape[0]) > task->size(Split::kTest))
      return "its canvases' shape is not that of " + cfg.env + "'s first test samples";
    const int K = static_cast<int>(shape[0]);
    std::vector<std::int64_t> idx(shape[0]);
    for (int i = 0; i < K; ++i) idx[i] = i;
    Batch b;
    b.Resize(K, task->height(), task->width());
    RenderRows(*task, Split::kTest, idx.data(), 0, K, 0, b);
    if (b.labels != labels) return "the task renders other labels";
    if (std::memcmp(b.images.data(), stored.data(), stored.size() * sizeof(float)) != 0)
      return "the task renders other canvases";
    return "";
  } catch (const Error& e) {
    return std::string("they cannot be rendered here: ") + e.what();
  }
}

}  // namespace

int RunSlim(int argc, char** argv) {
  po::options_description desc("slim options");
  desc.add_options()("help,h", "show this help")("run", po::value<std::string>()->required(), "run file to copy")(
      "out", po::value<std::string>()->required(), "the small copy to write")("force", "overwrite an existing --out")(
      "curves-only",
      "keep the series, evaluations and trajectories but no parameters (a screen's copy: it "
      "summarizes and plots, eval refuses it); about a seventh of a slim copy of an mnist28 run")(
      "best-only",
      "keep the series, evaluations, trajectories and the validation-selected parameters, not the last "
      "checkpoint's (a row's reported model: eval --checkpoint best and --init-from read it); about half "
      "a slim copy");
  po::variables_map vm;
  if (!ParseOrHelp(argc, argv, desc, vm,
                   "glimpse slim --run RUN.h5 --out SMALL.h5 [--force] [--curves-only | --best-only]"))
    return 0;
  const bool curves_only = vm.count("curves-only") > 0, best_only = vm.count("best-only") > 0;
  Check(!(curves_only && best_only),
        "--curves-only keeps no parameters and --best-only keeps the selected ones: "
        "pass one of them");
  const std::string in = vm["run"].as<std::string>(), out = vm["out"].as<std::string>();
  std::error_code ec;  // one file under two spellings (a link, "./a.h5", a hard link) is the same file
  Check(RealPath(in) != RealPath(out) && !std::filesystem::equivalent(in, out, ec), "--out '", out,
        "' is the run file itself (--run '", in, "'); slim writes a new copy");
  // A new runs/ folder next to an experiment's results is the usual --out: made, like mkdir -p.
  const std::filesystem::path folder = std::filesystem::path(out).parent_path();
  if (!folder.empty()) std::filesystem::create_directories(folder);
  std::string slot, canvases;
  {
    const RunFile file(in, RunFile::Mode::kReadOnly);
    slot = CheckpointGroup(file);
    // A curves-only copy has no checkpoint; --curves-only copies it again (leaving out its canvases).
    // A best-only copy has /best and no checkpoint; either copy again as its own kind or as curves.
    const bool curves_copy = slot.empty() && file.Attributes("/").count("epochs_done") > 0;
    const bool best_copy = curves_copy && HasBestCheckpoint(file);
    Check(!slot.empty() || (curves_copy && curves_only) || (best_copy && best_only), "'", in,
          "' holds no complete checkpoint: nothing to keep",
          best_copy     ? " (a best-only copy: --best-only or --curves-only copies it again)"
          : curves_copy ? " (a curves-only copy: --curves-only copies it again)"
                        : "");
    Check(!best_only || HasBestCheckpoint(file), "--best-only: '", in,
          "' holds no validation-selected parameters (/best: it was never evaluated on validation)");
    if (!slot.empty()) LoadCheckpoint(file);  // reads every part of the checkpoint, checking the stored digests
    if (best_copy) LoadBestCheckpoint(file);  // a best-only copy's parameters, checked the same way
    std::vector<std::string> skip = {slot + "/optimizer"};
    for (const auto& g : CheckpointGroups())
      if (g != slot) skip.push_back(g);
    bool same_params = false;  // /best holds the last checkpoint's parameters: stored once
    if (!slot.empty() && HasBestCheckpoint(file)) {
      LoadBestCheckpoint(file);  // checks its digest
      const auto best = file.Attributes(kBestGroup), last = file.Attributes(slot);
      same_params = best.count("digest:params") && last.count("digest:params") &&
                    best.at("digest:params") == last.at("digest:params");
      if (same_params) skip.push_back(std::string(kBestGroup) + "/params");
    }
    const std::int64_t epochs = EpochsDone(file);
    if (curves_only || best_only) {
      skip = curves_only ? std::vector<std::string>{kBestGroup} : std::vector<std::string>{};
      for (const auto& g : CheckpointGroups()) skip.push_back(g);
    }
    if (file.Exists(kCanvases)) {
      const std::string differ = CanvasesDiffer(file);
      canvases = differ.empty() ? "; logged canvases left out (its task renders them again)"
                                : "; logged canvases kept (" + differ + ")";
      if (differ.empty()) skip.push_back(kCanvases);
    }
    // One copy, edited before it becomes --out: a kill or a failure at any moment leaves --out as it was.
    file.CopyTo(out, skip, vm.count("force") > 0, [&](RunFile& copy) {
      if (curves_only || best_only) {  // the epochs done are the checkpoint's, which is left out
        copy.SetAttribute("/", "epochs_done", std::to_string(epochs));
        if (curves_copy && (best_copy ? best_only : curves_only)) return;  // its note names the first run
        copy.SetAttribute("/", "slim",
                          curves_only ? "a curves-only copy made by glimpse slim --curves-only from '" + in +
                                            "': no parameters, so it summarizes and plots but cannot be "
                                            "evaluated or resumed"
                                      : "a best-only copy made by glimpse slim --best-only from '" + in +
                                            "': the validation-selected parameters only, so it evaluates "
                                            "(--checkpoint best), plots and starts --init-from, but "
                                            "cannot be resumed");
        return;
      }
      // The optimizer state is left out, and so are its digests; a run from before digests gets one.
      for (const auto& [name, value] : copy.Attributes(slot))
        if (name.rfind("digest:optimizer/", 0) == 0) copy.RemoveAttribute(slot, name);
      if (!copy.Attributes(slot).count("digest:params")) {
        const std::vector<float> params = copy.ReadArray<float>(slot + "/params");
        copy.SetAttribute(slot, "digest:params", DigestOf(params.data(), params.size() * sizeof(float)));
      }
      if (same_params) copy.HardLink(slot + "/params", std::string(kBestGroup) + "/params");
      copy.SetAttribute("/", "slim",
                        "a copy made by glimpse slim from '" + in +
                            "': the optimizer state and the spare checkpoint are left out, so "
                            "it evaluates and plots but cannot be resumed");
    });
  }
  const auto size = [](const std::string& p) { return static_cast<double>(std::filesystem::file_size(p)) / 1e6; };
  std::cout << "wrote " << out << " (" << size(out) << " MB; " << in << ": " << size(in) << " MB), "
            << (curves_only ? "curves only"
                : best_only ? "validation-selected parameters only"
                            : "checkpoint " + slot)
            << canvases << "\n";
  return 0;
}

}  // namespace glimpse::cli
